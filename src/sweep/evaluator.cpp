#include "paradise/sweep/evaluator.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/checks.hpp"
#include "paradise/sweep/memlimit.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::sweep {
namespace {

/// The layer-times file of a model on a system: "MODEL@SYSTEM" first, then "MODEL".
std::string layer_times_for(const SweepSpec& s, const std::string& model,
                            const std::string& system) {
  if (const auto it = s.layer_times.find(model + "@" + system); it != s.layer_times.end())
    return it->second;
  if (const auto it = s.layer_times.find(model); it != s.layer_times.end()) return it->second;
  return {};
}

/// A layer-times file's rows and layer names checked against its model (at the model's own
/// input; errors name the file and line), before any workload swallows errors as "unusable".
void check_layer_times(const SweepSpec& s, const std::string& key, const std::string& path) {
  const std::string model = key.substr(0, key.find('@'));
  const std::string system =
      key.find('@') == std::string::npos ? s.systems.front() : key.substr(key.find('@') + 1);
  const strategy::WorkloadSpec w{model, strategy::own_input_dataset(model), system, "", 0, path};
  try {
    // every precision of the sweep's must be the measured one; without one, the paradise
    // variant takes it (strategy::default_precision) and the paradl variant models fp32
    const auto workload = strategy::make_workload(w);
    const bool paradl = s.variant == strategy::Variant::Paradl;
    const std::vector<strategy::Precision> used = !s.precisions.empty() ? s.precisions
                                                  : paradl ? std::vector{strategy::Precision::Fp32}
                                                           : std::vector<strategy::Precision>{};
    for (const auto p : used) {
      const auto why = strategy::precision_mismatch(workload, p);
      if (!why.empty()) {
        std::string message = path;
        message.append(": ").append(why);
        message += s.precisions.empty() ? " (the paradl variant models fp32: profile in fp32)"
                                        : " (precision must be the measured one alone)";
        throw InputError(message);
      }
    }
  } catch (const InputError& e) {
    throw InputError("layer_times " + key + ": " + e.what());
  }
}

}  // namespace

strategy::Config one_valued_settings(const SweepSpec& s) {
  strategy::Config c;
  c.variant = s.variant;
  if (s.spatial_splits.size() == 1) c.spatial_split = s.spatial_splits[0];
  if (s.p2s.size() == 1) c.p2 = s.p2s[0];
  if (s.segment_counts.size() == 1) c.segments = s.segment_counts[0];
  if (s.precisions.size() == 1) c.precision = s.precisions[0];
  // none given: each workload's default (Evaluator::set_default_precision)
  c.precision_by_default = s.precisions.empty() && s.variant == strategy::Variant::Paradise;
  if (s.optimizers.size() == 1) c.optimizer = s.optimizers[0];
  if (s.zero_stages.size() == 1) c.zero_stage = static_cast<int>(s.zero_stages[0]);
  if (s.recomputes.size() == 1) c.recompute_activations = s.recomputes[0] != 0;
  c.eval_samples = s.variant == strategy::Variant::Paradise ? s.eval_samples : 0;
  return c;
}

Grid make_grid(const SweepSpec& s) {
  std::vector<Axis> axes{Axis{"model", s.models, {}}, Axis{"dataset", s.datasets, {}}};
  if (!s.resolution.empty()) axes.push_back(Axis{"resolution", {}, s.resolution});
  axes.push_back(Axis{"system", s.systems, {}});
  // the network axes' coordinates: their values as the sweep file writes them
  if (!s.network_bandwidth.empty()) {
    Axis a{"network_bandwidth_gbps", {}, {}};
    for (const auto& v : s.network_bandwidth) a.values.push_back(v.gbps);
    axes.push_back(std::move(a));
  }
  if (!s.network_latency.empty()) {
    Axis a{"network_latency_us", {}, {}, {}};
    for (const auto& v : s.network_latency) a.reals.push_back(v.us);
    axes.push_back(std::move(a));
  }
  if (!s.input_cpu_cores.empty())
    axes.push_back(Axis{"input_cpu_cores_per_node", {}, s.input_cpu_cores});
  if (!s.input_node_read_GBps.empty())
    axes.push_back(Axis{"input_node_read_GBps", {}, {}, s.input_node_read_GBps});
  if (!s.input_filesystem_GBps.empty())
    axes.push_back(Axis{"input_filesystem_GBps", {}, {}, s.input_filesystem_GBps});
  axes.push_back(Axis{"strategy", s.strategies, {}});
  // training settings with several values (one value: every point's)
  const auto names = [](const auto& values, auto name_of) {
    std::vector<std::string> out;
    out.reserve(values.size());
    for (const auto v : values) out.emplace_back(name_of(v));
    return out;
  };
  if (s.precisions.size() > 1)
    axes.push_back(Axis{"precision", names(s.precisions, strategy::precision_name), {}});
  if (s.optimizers.size() > 1)
    axes.push_back(Axis{"optimizer", names(s.optimizers, strategy::optimizer_name), {}});
  if (s.zero_stages.size() > 1) axes.push_back(Axis{"zero_stage", {}, s.zero_stages});
  if (s.recomputes.size() > 1)
    axes.push_back(Axis{
        "recompute", names(s.recomputes, [](std::uint8_t r) { return r ? "true" : "false"; }), {}});
  if (s.implementations.size() > 1) axes.push_back(Axis{"implementation", s.implementations, {}});
  if (s.spatial_splits.size() > 1)
    axes.push_back(
        Axis{"spatial_split", names(s.spatial_splits, strategy::spatial_split_name), {}});
  if (s.p2s.size() > 1) axes.push_back(Axis{"p2", names(s.p2s, strategy::count_text), {}});
  if (s.segment_counts.size() > 1)
    axes.push_back(Axis{"segments", names(s.segment_counts, strategy::count_text), {}});
  axes.push_back(Axis{"gpus", {}, s.gpus});
  axes.push_back(Axis{"batch", {}, s.batch});
  return Grid(std::move(axes));
}

namespace {

/// The strategies' kinds, in the sweep's order.
std::vector<strategy::Kind> strategy_kinds(const std::vector<std::string>& strategies) {
  std::vector<strategy::Kind> kinds;
  kinds.reserve(strategies.size());
  for (const auto& name : strategies) {
    const auto k = strategy::kind_from_name(name);
    if (!k) throw InputError("strategy '" + name + "': expected one of " + strategy::kind_list());
    kinds.push_back(*k);
  }
  return kinds;
}

/// `c` with every combination of the sweep's shapes (split, p2, segments: the axes' order).
void add_shapes(const SweepSpec& spec, strategy::Config c, std::vector<strategy::Config>& out) {
  const auto or_default = [](const std::vector<std::int64_t>& values) {
    return values.empty() ? std::vector<std::int64_t>{0} : values;
  };
  for (const auto split : spec.spatial_splits) {
    for (const auto p2 : or_default(spec.p2s)) {
      for (const auto segments : or_default(spec.segment_counts)) {
        c.spatial_split = split;
        c.p2 = p2;
        c.segments = segments;
        out.push_back(c);
      }
    }
  }
}

/// Every combination of the training settings, checked against the variant; each with one
/// of `impls` (the implementation axis) and the shapes (add_shapes, fastest), whose names it
/// views.
std::vector<strategy::Config> training_settings(
    const SweepSpec& spec, const std::vector<implementation::Implementation>& impls) {
  std::vector<strategy::Config> settings;
  // the training settings' combinations, precision slowest and implementation fastest (the
  // axes' order); an empty list is the default's one value
  const strategy::Config base = one_valued_settings(spec);
  const auto or_default = [](const auto& values, auto fallback) {
    return values.empty() ? std::vector{fallback} : values;
  };
  const strategy::Training& pol = base;
  for (const auto p : or_default(spec.precisions, base.precision)) {
    for (const auto o : or_default(spec.optimizers, pol.optimizer)) {
      for (const auto z : or_default(spec.zero_stages, std::int64_t{pol.zero_stage})) {
        for (const auto r : or_default(spec.recomputes, std::uint8_t{pol.recompute_activations})) {
          if (z < 0 || z > 3) throw InputError("zero '" + std::to_string(z) + "': expected 0 to 3");
          // ParaDL's variant: the defaults only (a one-valued setting is in base too)
          const strategy::Config defaults;
          const strategy::Training& d = defaults;
          const bool paradl = spec.variant == strategy::Variant::Paradl;
          if (paradl && (p != defaults.precision || o != d.optimizer || z != d.zero_stage ||
                         r != d.recompute_activations))
            throw InputError(
                "precision, optimizer, zero and recompute: the paradl variant models fp32 "
                "and none of the paradise variant's policies");
          strategy::Config c = base;
          c.precision = p;
          c.optimizer = o;
          c.zero_stage = static_cast<int>(z);
          c.recompute_activations = r != 0;
          for (const auto& impl : impls) {
            c.implementation = impl.profile;
            c.implementation_name = impl.name;
            add_shapes(spec, c, settings);
          }
        }
      }
    }
  }
  return settings;
}

/// The memory this process may use: the machine's, or less under ulimit -v or -d.
double usable_memory_bytes() {
  double bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                 static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
  }
  return bytes;
}

/// Refuses a sweep whose workloads would hold more than max_workload_bytes per rank.
void check_workload_bytes(const SweepSpec& spec, std::uint64_t system_variants) {
  const auto count = [](const auto& axis) { return std::max<std::size_t>(1, axis.size()); };
  const double bases = static_cast<double>(count(spec.models) * count(spec.datasets)) *
                       static_cast<double>(count(spec.resolution) * count(spec.systems));
  // each base holds its model's per-layer tables on every rank, the same size at any
  // dataset, resolution and system: one built per model at its own input prices them all,
  // and more than max_workload_bytes is refused before any other is built (the grid's own
  // size is checked later); a system variant adds its system
  double per_model_sum = 0, per_variant = 0;
  for (const auto& m : spec.models) {
    const strategy::WorkloadSpec own{m, strategy::own_input_dataset(m), spec.systems.front(), "",
                                     0};
    const auto w = strategy::make_workload(own);
    // LayerSums' gradient readiness table: at most one entry per layer
    per_model_sum += static_cast<double>(
        strategy::footprint_bytes(w) + sizeof(strategy::LayerSums) +
        w.model.layers.size() * sizeof(cost::GradientReady) + sizeof(std::string));
    per_variant = std::max(per_variant,
                           static_cast<double>(system::footprint_bytes(w.system) +
                                               sizeof(system::System) + sizeof(ResolutionFamily)));
  }
  const double variants = static_cast<double>(system_variants);
  const double need = per_model_sum * bases / static_cast<double>(count(spec.models)) +
                      (variants > 1 ? per_variant * bases * variants : 0);
  // a bound no sweep file lifts: the memory this process may have, the machine's or a
  // smaller limit (ulimit -v, -d) (max_workload_bytes = 1e308 built workloads until
  // std::bad_alloc, minutes later; issue 35)
  const double memory = usable_memory_bytes();
  const bool machine_bound = memory > 0 && memory < spec.max_workload_bytes;
  const std::string bound = machine_bound
                                ? "the memory this process may use, " + human_bytes(memory) +
                                      " (max_workload_bytes is larger)"
                                : "max_workload_bytes = " + human_bytes(spec.max_workload_bytes);
  if (need > (machine_bound ? memory : spec.max_workload_bytes))
    throw InputError(
        "the sweep's " + with_commas(static_cast<std::int64_t>(std::min(bases, 9e18))) +
        (bases == 1 ? " workload" : " workloads") +
        " (model x dataset x resolution x system values)" +
        (variants > 1
             ? " in " + with_commas(static_cast<std::int64_t>(std::min(bases * variants, 9e18))) +
                   " system variants (x network and input values)"
             : std::string()) +
        " need about " + human_bytes(need) +
        " per rank (a model's per-layer tables each, a system per variant), more than " + bound +
        ": give those axes fewer values");
}

/// The resolution and network axes' values in range.
void check_network_values(const SweepSpec& spec) {
  for (std::int64_t v : spec.resolution) {
    if (v < 1) throw InputError("resolution '" + std::to_string(v) + "': must be >= 1");
  }
  for (const auto& v : spec.network_bandwidth) {
    if (v.gbps < 1 || !(v.Bps > 0) || !std::isfinite(v.Bps))
      throw InputError("network bandwidth '" + std::to_string(v.gbps) + "': must be >= 1");
  }
  for (const auto& v : spec.network_latency) {
    if (!(v.s > 0) || !std::isfinite(v.s) || !(v.us > 0) || !std::isfinite(v.us))
      throw InputError("network latency '" + std::to_string(v.us) + "': must be > 0");
  }
}

/// The epochs to target of model m on dataset d: [convergence] m@d, else m, else (at the
/// dataset's own size) the built-in; epochs_min 0 when none. A to-train objective refuses
/// a usable pair (the model takes the dataset) without one.
model::Convergence convergence_of(const SweepSpec& s, const std::string& m, const std::string& d,
                                  bool usable) {
  std::string pair = m;
  pair.append("@").append(d);
  for (const std::string* key : {&std::as_const(pair), &m}) {
    if (const auto it = s.convergence.find(*key); it != s.convergence.end()) return it->second;
  }
  if (s.resolution.empty()) {
    if (auto b = model::builtin_convergence(m, d)) return *b;
  }
  if (s.needs_epochs && usable)
    throw InputError(
        "pareto objectives time_to_train and gpu_hours_to_train need the epochs to "
        "target: none for model '" +
        m + "' on dataset '" + d + (s.resolution.empty() ? "'" : "' on a resolution axis") +
        "; give [convergence] " + m + " = E_MIN[:NOISE_BATCH] (docs/time-to-train.md)");
  return {};
}

/// Whether the sweep has a network or an input axis (then every point's system is a variant).
bool has_system_axes(const SweepSpec& s) {
  return !s.network_bandwidth.empty() || !s.network_latency.empty() || !s.input_cpu_cores.empty() ||
         !s.input_node_read_GBps.empty() || !s.input_filesystem_GBps.empty();
}

/// Every combination of the network and input axes' values, in the grid's order (the last
/// axis fastest); an absent axis is one value that keeps the system's (0).
std::vector<system::Overrides> system_variants(const SweepSpec& s) {
  const auto or_keep = [](const auto& values) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    return values.empty() ? std::vector<T>{T{}} : values;
  };
  std::vector<system::Overrides> out;
  for (const auto& bw : or_keep(s.network_bandwidth)) {
    for (const auto& lat : or_keep(s.network_latency)) {
      for (const auto cores : or_keep(s.input_cpu_cores)) {
        for (const auto read : or_keep(s.input_node_read_GBps)) {
          for (const auto fs : or_keep(s.input_filesystem_GBps))
            out.push_back({bw.Bps, lat.s, cores, read * 1e9, fs * 1e9});  // GB/s -> B/s
        }
      }
    }
  }
  return out;
}

}  // namespace

Searched searched_shapes(const SweepSpec& s) {
  const auto has = [&](auto applies) {
    return std::any_of(s.strategies.begin(), s.strategies.end(), [&](const std::string& n) {
      const auto k = strategy::kind_from_name(n);
      return k && applies(*k);
    });
  };
  const auto searches = [](const auto& values, auto value) {
    return std::find(values.begin(), values.end(), value) != values.end();
  };
  Searched out;
  out.p2 = searches(s.p2s, strategy::kSearched) && has(strategy::has_groups);
  out.segments =
      searches(s.segment_counts, strategy::kSearched) && has(strategy::has_micro_batches);
  out.spatial_split =
      searches(s.spatial_splits, strategy::SpatialSplit::Auto) && has(strategy::splits_samples);
  return out;
}

std::string_view spatial_split_used_name(std::uint8_t code) {
  return code == 0 ? "none"
                   : strategy::spatial_split_name(static_cast<strategy::SpatialSplit>(code - 1));
}

// Gbit/s -> bytes/s: 10^9 bits of 8
NetworkBandwidth gbit_per_s(std::int64_t gbps) {
  return {gbps, static_cast<double>(gbps) * 1e9 / 8};
}
// microseconds -> seconds
NetworkLatency microseconds(double us) {
  return {us, us * 1e-6};
}

Evaluator::Evaluator(const SweepSpec& spec) : spec_(spec), grid_(make_grid(spec)) {
  kinds_ = strategy_kinds(spec.strategies);
  if (!spec.implementations.empty() && spec.variant == strategy::Variant::Paradl)
    throw InputError(
        "implementation: the paradl variant is ParaDL's formulas, with no "
        "implementation profile");
  for (const auto& i : spec.implementations)
    implementations_.push_back(implementation::find_implementation(i));
  if (implementations_.empty())
    implementations_.push_back(implementation::find_implementation(implementation::kDefaultName));
  settings_ = training_settings(spec, implementations_);
  if (const auto g = first_below_one(spec.gpus))
    throw InputError("gpus '" + std::to_string(*g) + "': must be >= 1");
  if (const auto b = first_below_one(spec.batch))
    throw InputError("batch '" + std::to_string(*b) + "': must be >= 1");
  // Unknown names are input errors; a model that cannot take a dataset's samples (2-D model,
  // 3-D data; resolution too small) makes its points invalid, with the reason.
  for (const auto& m : spec.models) model::ModelSource::load(m);
  for (const auto& d : spec.datasets) model::find_dataset(d);
  for (const auto& s : spec.systems) named_systems_.push_back(system::find_system(s));
  // a profile that stages through the host needs each system's host link
  for (const auto& s : named_systems_) {
    for (const auto& setting : settings_) {  // every one: the shapes vary faster than profiles
      if (const auto why = strategy::host_link_missing(setting, s); !why.empty())
        throw InputError("implementation: " + why);
    }
  }
  for (const auto& [key, path] : spec.layer_times) check_layer_times(spec, key, path);
  // One workload per combination of the axes before strategy, in grid order. A model that
  // cannot take a dataset (2-D model, 3-D data; a resolution too small) makes its points
  // invalid, with the reason. The system variants (the network and input axes, the last of
  // those) differ only in the system: they share one base workload's tables, sums and memo.
  const auto variants = system_variants(spec);
  variants_ = variants.size();
  check_workload_bytes(spec, variants_);
  // a network or input axis, even of one value, overrides the systems' values
  const bool overridden = has_system_axes(spec);
  const std::vector<std::int64_t> keep{0};
  const auto& res = spec.resolution.empty() ? keep : spec.resolution;
  check_network_values(spec);
  for (const auto& m : spec.models) {
    for (const auto& d : spec.datasets) {
      for (std::int64_t side : res) {
        for (const auto& s : spec.systems) {
          std::string why;
          ResolutionFamily family;
          family.spec = {m, d, s, "", 0, layer_times_for(spec, m, s)};
          family.samples_at_side = spec.resolution_samples;
          try {
            bases_.push_back(side > 0 ? family.make(side) : family.native());
            sums_.push_back(strategy::sum_layers(bases_.back()));
            default_precisions_.push_back(strategy::default_precision(bases_.back()));
          } catch (const InputError& e) {
            why = e.what();
            bases_.emplace_back();
            sums_.emplace_back();
            default_precisions_.push_back(strategy::Precision::Fp32);  // invalid points
          }
          unusable_.push_back(why);
          convergence_.push_back(convergence_of(spec, m, d, why.empty()));
          installed_.push_back(families_.size());
          for (const auto& o : variants) {
            families_.push_back(family);
            families_.back().overrides = o;
            if (overridden) systems_.push_back(system::with_overrides(bases_.back().system, o));
          }
        }
      }
    }
  }
  // the bases hold their first variant's system (with one, the only one)
  for (std::size_t b = 0; b < bases_.size() && overridden; ++b)
    bases_[b].system = systems_[b * variants_];
  memos_.resize(bases_.size());
}

std::string Evaluator::convergence_text() const {
  std::string out;
  const std::size_t per_dataset = std::max<std::size_t>(1, spec_.resolution.size()) *
                                  spec_.systems.size();  // bases per model and dataset
  for (std::size_t b = 0; b < convergence_.size(); b += per_dataset) {
    const auto& e = convergence_[b];
    if (!(e.epochs_min > 0)) continue;
    const std::size_t nd = spec_.datasets.size();
    const std::string& m = spec_.models[b / per_dataset / nd];
    const std::string& d = spec_.datasets[b / per_dataset % nd];
    std::ostringstream line;
    line.precision(6);
    line << m << " on " << d << ": " << e.epochs_min << " x (1 + B / " << e.noise_batch << "), "
         << e.source;
    out += (out.empty() ? "" : "\n") + line.str();
  }
  return out;
}

std::string Evaluator::default_precision_text() const {
  if (settings_.empty() || !settings_.front().precision_by_default) return "";
  // per system value, in the sweep's order: the precision of its usable workloads
  std::vector<std::string> per_system(spec_.systems.size());
  const std::size_t ns = spec_.systems.size();
  for (std::size_t b = 0; b < bases_.size(); ++b) {
    if (!unusable_[b].empty()) continue;
    auto& text = per_system[b % ns];  // system is the fastest of the base axes
    const std::string name(strategy::precision_name(default_precisions_[b]));
    if (text.empty()) {
      text = name;
    } else if (text.find(name) == std::string::npos) {
      text += "/" + name;  // measured layer times of another precision for one model
    }
  }
  std::string all, first;
  bool same = true;
  for (std::size_t i = 0; i < ns; ++i) {
    if (per_system[i].empty()) continue;
    if (first.empty()) first = per_system[i];
    same = same && per_system[i] == first;
    all += (all.empty() ? "" : ", ") + per_system[i] + " on " + spec_.systems[i];
  }
  return same ? first : all;
}

const strategy::Workload& Evaluator::workload(std::uint64_t w) const {
  const std::uint64_t b = w / variants_;
  if (installed_[b] != w) {  // another system variant of the base: swap its system in
    bases_[b].system = systems_[w];
    installed_[b] = w;
  }
  return bases_[b];
}

Evaluator::Point Evaluator::point(std::uint64_t index) const {
  const auto nb = spec_.batch.size(), ng = spec_.gpus.size(), ns = settings_.size(),
             nk = kinds_.size();
  const auto batch = spec_.batch[index % nb];
  index /= nb;
  const auto gpus = spec_.gpus[index % ng];
  index /= ng;
  Point p;
  p.config = settings_[index % ns];
  index /= ns;
  p.config.batch = batch;
  p.config.gpus = gpus;
  p.config.kind = kinds_[index % nk];
  p.workload = index / nk;
  set_default_precision(p.config, p.workload / variants_);
  return p;
}

PointResult Evaluator::evaluate(std::uint64_t index) const {
  // decode without allocation: batch fastest, then gpus, the training settings, strategy,
  // then the workload axes
  const auto nb = spec_.batch.size(), ng = spec_.gpus.size(), ns = settings_.size(),
             nk = kinds_.size();
  const std::uint64_t b = index % nb;
  index /= nb;
  const std::uint64_t g = index % ng;
  index /= ng;
  const std::uint64_t q = ns == 1 ? 0 : index % ns;
  if (ns > 1) index /= ns;
  const std::uint64_t k = index % nk;
  index /= nk;  // index is now the workload number (the axes before strategy)
  strategy::Config c = settings_[q];
  c.kind = kinds_[k];
  c.gpus = spec_.gpus[g];
  c.batch = spec_.batch[b];
  PointResult r;
  // the base workload (one division only with system variants: this is the per-point loop)
  const std::uint64_t base = variants_ == 1 ? index : index / variants_;
  set_default_precision(c, base);
  if (!unusable_[base].empty()) {  // the model cannot take the dataset: no figures
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    r.status = static_cast<std::uint8_t>(strategy::Status::Invalid);
    r.memory_per_gpu_bytes = r.epoch_time_s = r.iteration_time_s = none;
    r.epoch_compute_s = r.epoch_communication_s = r.epochs_to_target = none;
    r.epoch_step_overhead_s = none;
    return r;
  }
  strategy::Prediction& p = scratch_;
  strategy::predict_into(variants_ == 1 ? bases_[base] : workload(index), sums_[base], c, p,
                         &memos_[base]);
  r.status = static_cast<std::uint8_t>(p.status);
  r.limit = static_cast<std::uint8_t>(p.limit);
  r.memory_per_gpu_bytes = p.memory_per_gpu_bytes;
  r.epoch_time_s = p.epoch_time_s;
  r.iteration_time_s = p.iteration_time_s;
  r.epoch_compute_s = p.epoch_compute_s;
  r.epoch_communication_s = p.epoch_communication_s;
  r.epoch_step_overhead_s = p.epoch_step_overhead_s;
  const auto& e = convergence_[base];
  r.epochs_to_target =
      e.epochs_min > 0 ? e.epochs(c.batch) : std::numeric_limits<double>::quiet_NaN();
  if (p.status != strategy::Status::Invalid) {
    r.p2_used = static_cast<std::int32_t>(
        std::min<std::int64_t>(p.p2, std::numeric_limits<std::int32_t>::max()));
    r.segments_used = static_cast<std::int32_t>(
        std::min<std::int64_t>(p.segments, std::numeric_limits<std::int32_t>::max()));
    r.spatial_split_used = strategy::splits_samples(c.kind)
                               ? static_cast<std::uint8_t>(1 + static_cast<int>(p.spatial_split))
                               : 0;
  }
  return r;
}

}  // namespace paradise::sweep
