// `paradise recommend`: every strategy at every GPU count (powers of two up to --max-gpus)
// and batch, predicted in-process from one workload, ranked by an objective; then one line
// per strategy that did not make the top K, saying why from its own predictions.
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/memlimit.hpp"
#include "paradise/system/catalog.hpp"
#include "split_layer.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

using strategy::Kind;
using strategy::Limit;
using strategy::Status;

enum class Objective : std::uint8_t { Time, GpuHours, MemoryHeadroom };

std::string_view objective_name(Objective o) {
  switch (o) {
    case Objective::Time:
      return "time";
    case Objective::GpuHours:
      return "gpu-hours";
    case Objective::MemoryHeadroom:
      return "memory-headroom";
  }
  return "?";
}

std::optional<Objective> objective_from_name(std::string_view s) {
  for (auto o : {Objective::Time, Objective::GpuHours, Objective::MemoryHeadroom}) {
    if (objective_name(o) == s) return o;
  }
  return std::nullopt;
}

/// One evaluated configuration: the scalars of its prediction (the reason only when not ok).
struct Eval {
  Kind kind = Kind::Data;
  std::size_t kind_index = 0;  ///< position in the evaluated strategies (ties)
  std::int64_t gpus = 0, batch = 0;
  Status status = Status::Ok;
  Limit limit = Limit::None;
  double epoch_s = 0, compute_s = 0, communication_s = 0, memory_bytes = 0;
  std::string reason;
  int split_layer = -1;                              ///< spatial strategies: the last split layer
  std::array<std::int64_t, 3> split_parts{1, 1, 1};  ///< and its parts along W, H, D
  double gpu_hours() const { return epoch_s * static_cast<double>(gpus) / 3600; }
};

/// Ranks feasible configurations: the objective, then epoch time, then fewer GPUs, then the
/// smaller batch, then the strategies' order (a total order: the output is reproducible).
struct Ranking {
  Objective objective = Objective::Time;
  double score(const Eval& e) const {
    switch (objective) {
      case Objective::Time:
        return e.epoch_s;
      case Objective::GpuHours:
        return e.gpu_hours();
      case Objective::MemoryHeadroom:
        return e.memory_bytes;  // headroom = usable - memory: less memory, more headroom
    }
    return 0;
  }
  bool operator()(const Eval& a, const Eval& b) const {
    const double sa = score(a), sb = score(b);
    if (sa != sb) return sa < sb;
    if (a.epoch_s != b.epoch_s) return a.epoch_s < b.epoch_s;
    if (a.gpus != b.gpus) return a.gpus < b.gpus;
    if (a.batch != b.batch) return a.batch < b.batch;
    return a.kind_index < b.kind_index;
  }
};

/// 1, 2, 4, ... up to `max`, plus `max` itself when it is not a power of two.
std::vector<std::int64_t> gpu_counts(std::int64_t max) {
  std::vector<std::int64_t> v;
  for (std::int64_t g = 1; g <= max; g *= 2) {
    v.push_back(g);
    if (g > max / 2) break;  // no overflow for huge --max-gpus
  }
  if (v.back() != max) v.push_back(max);
  return v;
}

/// lo, hi and the powers of two between them, ascending.
std::vector<std::int64_t> batch_values(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> v{lo};
  for (std::int64_t b = 1; b <= hi; b *= 2) {
    if (b > lo) v.push_back(b);
    if (b > hi / 2) break;
  }
  if (v.back() != hi) v.push_back(hi);
  return v;
}

std::int64_t parse_positive(std::string_view s, const std::string& what) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1) throw InputError(what);
  return v;
}

/// "A..B" with 1 <= A <= B.
std::pair<std::int64_t, std::int64_t> parse_range(const std::string& text) {
  const std::string what =
      "--batch-range '" + text + "': expected A..B with whole numbers 1 <= A <= B, e.g. 256..4096";
  const auto dots = text.find("..");
  if (dots == std::string::npos) throw InputError(what);
  const std::string_view s(text);
  const auto lo = parse_positive(s.substr(0, dots), what);
  const auto hi = parse_positive(s.substr(dots + 2), what);
  if (lo > hi) throw InputError(what);
  return {lo, hi};
}

std::string config_text(const Eval& e) {
  return gpus_text(e.gpus) + ", batch " + std::to_string(e.batch);
}

/// "all 7 configurations", "5 of 7 configurations", "its only configuration".
std::string share_text(std::size_t n, std::size_t of) {
  if (of == 1) return "its only configuration";
  return (n == of ? "all " : std::to_string(n) + " of ") + std::to_string(of) + " configurations";
}

std::string ratio_text(double r) {
  return fixed(r, r < 10 ? 2 : 1) + "x";
}

/// Notes on how a strategy scales, from its feasible predictions (`feasible`, ranked best
/// first, none empty): where it turns communication-bound, whether compute grows with GPUs
/// (the pipeline's bubble) or barely shrinks.
std::vector<std::string> scaling_notes(const std::vector<Eval>& feasible) {
  std::vector<std::string> notes;
  // communication-bound beyond N: N the largest count at which it was compute-bound
  std::int64_t n = 0;
  for (const auto& e : feasible) {
    if (e.limit == Limit::Compute) n = std::max(n, e.gpus);
  }
  bool beyond = false, all_comm = true;
  for (const auto& e : feasible) {
    if (e.gpus <= n) continue;
    beyond = true;
    all_comm = all_comm && e.limit == Limit::Communication;
  }
  if (beyond && all_comm) {
    notes.push_back(n > 0 ? "communication-bound beyond " + gpus_text(n)
                          : "communication-bound at every GPU count tried");
  }
  // compute per epoch against GPUs, at the batch of its best configuration
  std::vector<const Eval*> at_batch;
  for (const auto& e : feasible) {
    if (e.batch == feasible.front().batch) at_batch.push_back(&e);
  }
  std::sort(at_batch.begin(), at_batch.end(),
            [](const Eval* a, const Eval* b) { return a->gpus < b->gpus; });
  if (at_batch.size() < 2) return notes;
  const Eval& smallest = *at_batch.front();
  const Eval& largest = *at_batch.back();
  const Eval& least =
      **std::min_element(at_batch.begin(), at_batch.end(),
                         [](const Eval* a, const Eval* b) { return a->compute_s < b->compute_s; });
  const Kind kind = smallest.kind;
  // growth by more than rounding: the pipeline's (p + S - 1) / S factor once the slowest
  // stage stops shrinking
  if (largest.gpus > least.gpus && largest.compute_s > 1.001 * least.compute_s) {
    notes.push_back(std::string(kind == Kind::Pipeline ? "pipeline bubble: " : "") +
                    "compute per epoch grows with GPUs, from " + fixed(least.compute_s, 1) +
                    " s on " + std::to_string(least.gpus) + " to " + fixed(largest.compute_s, 1) +
                    " s on " + std::to_string(largest.gpus));
  } else if (largest.gpus >= 4 * smallest.gpus && largest.compute_s > 0.5 * smallest.compute_s) {
    // at least two doublings: a data-parallel ceil(D/p) must not read as "barely"
    notes.push_back("compute barely shrinks with more GPUs (" + fixed(smallest.compute_s, 1) +
                    " s on " + std::to_string(smallest.gpus) + ", " + fixed(largest.compute_s, 1) +
                    " s on " + std::to_string(largest.gpus) + ")");
  }
  return notes;
}

/// Why a strategy is not in the top K, from its own predictions.
std::string why_not(const std::vector<const Eval*>& mine, const Eval* winner, const Ranking& rank,
                    double usable_bytes) {
  std::vector<Eval> feasible;
  const Eval *least_memory = nullptr, *widest_invalid = nullptr;
  std::size_t oom = 0, invalid = 0;
  for (const Eval* e : mine) {
    if (e->status == Status::Ok) {
      feasible.push_back(*e);
    } else if (e->status == Status::OutOfMemory) {
      ++oom;
      if (!least_memory || e->memory_bytes < least_memory->memory_bytes) least_memory = e;
    } else {
      ++invalid;
      if (!widest_invalid || e->gpus > widest_invalid->gpus) widest_invalid = e;
    }
  }
  const auto oom_text = [&] {
    return "out of memory: " + least_memory->reason + " (its smallest footprint, at " +
           config_text(*least_memory) + "; " + share_text(oom, mine.size()) + " out of memory)";
  };
  const auto invalid_text = [&] {
    return "invalid: " + widest_invalid->reason + " (at " + config_text(*widest_invalid) + "; " +
           share_text(invalid, mine.size()) + " invalid)";
  };
  if (feasible.empty()) {
    if (mine.empty()) return "not evaluated: on 1 GPU it is serial";
    if (oom >= invalid) {
      std::string s = oom_text();
      if (invalid > 0) s += "; the others invalid, e.g. " + widest_invalid->reason;
      return s;
    }
    std::string s = invalid_text();
    if (oom > 0) s += "; the others out of memory: " + least_memory->reason;
    return s;
  }
  std::sort(feasible.begin(), feasible.end(), rank);
  const Eval& best = feasible.front();
  std::string s =
      "best at " + config_text(best) + " (" + fixed(best.epoch_s, 1) + " s per epoch): ";
  switch (rank.objective) {
    case Objective::Time:
      s += ratio_text(best.epoch_s / winner->epoch_s) + " the winner's epoch time";
      break;
    case Objective::GpuHours:
      s += ratio_text(best.gpu_hours() / winner->gpu_hours()) + " the winner's GPU-hours";
      break;
    case Objective::MemoryHeadroom:
      s += human_bytes(usable_bytes - best.memory_bytes) + " memory headroom, the winner has " +
           human_bytes(usable_bytes - winner->memory_bytes);
      break;
  }
  for (const auto& note : scaling_notes(feasible)) s += "; " + note;
  return s;
}

/// The largest batch below `below` at which some strategy fits on some GPU count (memlimit's
/// exact search per strategy and count, not halvings); 0: none.
std::int64_t largest_smaller_batch(const strategy::Workload& w, const strategy::LayerSums& sums,
                                   strategy::Config c, const std::vector<Kind>& kinds,
                                   const std::vector<std::int64_t>& counts, bool has_serial,
                                   std::int64_t below) {
  std::int64_t best = 0;
  if (below <= 1) return best;
  for (const Kind k : kinds) {
    for (const std::int64_t g : counts) {
      if (k == Kind::Serial ? g != 1 : g == 1 && has_serial) continue;  // as evaluated
      c.kind = k;
      c.gpus = g;
      best = std::max(best, sweep::largest_batch(w, c, 1, below - 1, &sums).value);
    }
  }
  return best;
}

/// A change of the settings tried when nothing fits, and what it gives.
struct Change {
  std::string options;  ///< as written on the command line
  std::size_t feasible = 0;
  std::optional<Eval> best;  ///< by the objective
};

/// When no configuration fits: each setting that saves memory, changed alone (the rest as
/// given), then all of them together, then `smaller_batch` (the largest batch below the
/// smallest tried at which some strategy and GPU count fits; 0: none). `evaluate(config,
/// batches)` predicts every strategy and GPU count.
template <class Evaluate>
std::vector<Change> what_would_fit(const strategy::Config& c, const strategy::Workload& w,
                                   const std::vector<Kind>& kinds,
                                   const std::vector<std::int64_t>& batches, const Ranking& rank,
                                   const Evaluate& evaluate, std::int64_t smaller_batch) {
  const auto outcome = [&](std::string options, const strategy::Config& x,
                           const std::vector<std::int64_t>& bs) {
    Change ch{std::move(options), 0, std::nullopt};
    for (const auto& e : evaluate(x, bs)) {
      if (e.status != Status::Ok) continue;
      ++ch.feasible;
      if (!ch.best || rank(e, *ch.best)) ch.best = e;
    }
    return ch;
  };
  const bool paradise = c.variant == strategy::Variant::Paradise;
  const auto has = [&](Kind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  std::vector<Change> out;
  strategy::Config all = c;
  std::string all_options;
  int changed = 0;
  const auto alone = [&](const std::string& option, auto&& apply) {
    strategy::Config one = c;
    apply(one);
    apply(all);
    out.push_back(outcome(option, one, batches));
    all_options += (all_options.empty() ? "" : " ") + option;
    ++changed;
  };
  // mixed precision halves activations (not with layer times measured at another precision)
  if (paradise && c.precision != strategy::Precision::Mixed &&
      strategy::precision_mismatch(w, strategy::Precision::Mixed).empty())
    alone("--precision mixed",
          [](strategy::Config& x) { x.precision = strategy::Precision::Mixed; });
  if (paradise && !c.recompute_activations)
    alone("--recompute", [](strategy::Config& x) { x.recompute_activations = true; });
  const bool parallel =
      std::any_of(kinds.begin(), kinds.end(), [](Kind k) { return k != Kind::Serial; });
  if (paradise && parallel && c.zero_stage < 3)  // sharding needs more than one GPU
    alone("--zero 3", [](strategy::Config& x) { x.zero_stage = 3; });
  // every spatial dimension split: spatial under both variants, data+spatial under paradise
  if (!c.spatial_all_dims && (has(Kind::Spatial) || (paradise && has(Kind::DataSpatial))))
    alone("--spatial-split all", [](strategy::Config& x) { x.spatial_all_dims = true; });
  if (changed > 1) out.push_back(outcome(all_options, all, batches));
  if (smaller_batch > 0) {
    out.push_back(outcome("--batch " + std::to_string(smaller_batch), c, {smaller_batch}));
  } else if (batches.front() > 1) {  // every batch below the smallest tried, by search
    out.push_back({"--batch 1 to " + std::to_string(batches.front() - 1), 0, std::nullopt});
  }
  return out;
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

int run_recommend(const Args& args) {
  po::options_description desc(
      "paradise recommend --model M --dataset D --system S --max-gpus P (--batch B | "
      "--batch-range A..B) [options]");
  strategy::WorkloadSpec spec;
  std::string objective_text = "time", variant_text = "paradise", format = "table", range,
              strategies;
  std::int64_t max_gpus = 0, batch = 0, top = 10;
  desc.add_options()("model", po::value(&spec.model)->required(),
                     "zoo name, *.model file or ParaDL .net file")(
      "dataset", po::value(&spec.dataset),
      "dataset name or NAME:SAMPLES:SHAPE (default for .net: its own)")(
      "system", po::value(&spec.system)->default_value("abci"), "built-in system or *.system file")(
      "max-gpus", po::value(&max_gpus)->required(),
      "largest GPU count P: tries 1, 2, 4, ... up to P, and P")("batch", po::value(&batch),
                                                                "global mini-batch B")(
      "batch-range", po::value(&range),
      "global mini-batches A..B: A, the powers of two between, and B")(
      "objective", po::value(&objective_text),
      "time (epoch time), gpu-hours (epoch time x GPUs) or memory-headroom (free device memory)")(
      "top", po::value(&top), "configurations to list (default 10)")(
      "strategies", po::value(&strategies),
      "comma-separated strategies to consider (default: all; serial only on 1 GPU)")(
      "variant", po::value(&variant_text), "cost model: paradise (default) or paradl")(
      "layer-config", po::value(&spec.layer_config), "ParaDL .lc file: which layers are parallel")(
      "time-per-sample", po::value(&spec.time_per_sample_s), "measured FW+BW seconds per sample")(
      "layer-times", po::value(&spec.layer_times),
      "CSV of measured per-layer times (paradise calibrate --profile, profile_layers.py)")(
      "format", po::value(&format), "table or json");
  std::string spatial_split = "w";
  std::int64_t side = 0;  // --resolution
  TrainingOptions training;
  add_training_options(desc, training);
  add_spatial_split_option(desc, spatial_split);
  add_resolution_option(desc, side);
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Ranks every strategy, GPU count and batch by an objective and says why the "
                     "other strategies lost."))
    return 0;
  const auto objective = objective_from_name(objective_text);
  if (!objective)
    throw InputError("--objective '" + objective_text +
                     "': expected time, gpu-hours or memory-headroom");
  const auto variant = strategy::variant_from_name(variant_text);
  if (!variant) throw InputError("--variant '" + variant_text + "': expected paradl or paradise");
  strategy::Config c;  // every configuration's settings but strategy, GPUs and batch
  c.variant = *variant;
  apply_training_options(vm, training, c);
  if (format != "table" && format != "json")
    throw InputError("--format '" + format + "': expected table or json");
  if (max_gpus < 1) throw InputError("--max-gpus '" + std::to_string(max_gpus) + "': must be >= 1");
  if (top < 1) throw InputError("--top '" + std::to_string(top) + "': must be >= 1");
  const bool all_dims = spatial_all_dims(spatial_split);
  const bool has_batch = vm.count("batch") > 0, has_range = vm.count("batch-range") > 0;
  if (has_batch && has_range)
    throw InputError("--batch '" + std::to_string(batch) + "' and --batch-range '" + range +
                     "': give one of them");
  if (!has_batch && !has_range) throw InputError("--batch or --batch-range: one is required");
  std::vector<std::int64_t> batches;
  if (has_batch) {
    if (batch < 1) throw InputError("--batch '" + std::to_string(batch) + "': must be >= 1");
    batches = {batch};
  } else {
    const auto [lo, hi] = parse_range(range);
    batches = batch_values(lo, hi);
  }
  std::vector<Kind> kinds;
  if (vm.count("strategies") && trim(strategies).empty())  // it was taken as "all"
    throw InputError("--strategies '': expected a comma-separated list of " +
                     strategy::kind_list());
  if (strategies.empty()) {
    for (const Kind k : strategy::all_kinds())  // what the variant models
      if (strategy::models(*variant, k)) kinds.push_back(k);
  } else {
    std::size_t start = 0;
    while (start <= strategies.size()) {
      auto end = strategies.find(',', start);
      if (end == std::string::npos) end = strategies.size();
      const std::string name(trim(std::string_view(strategies).substr(start, end - start)));
      const auto k = strategy::kind_from_name(name);
      if (!k)
        throw InputError("--strategies '" + strategies + "': '" + name + "' is not one of " +
                         strategy::kind_list());
      if (std::find(kinds.begin(), kinds.end(), *k) == kinds.end()) kinds.push_back(*k);
      start = end + 1;
    }
  }
  const std::vector<std::int64_t> counts = gpu_counts(max_gpus);
  const bool has_serial = std::find(kinds.begin(), kinds.end(), Kind::Serial) != kinds.end();

  // Name the option in the loaders' messages ("unknown system 'x'").
  try {
    system::find_system(spec.system);
  } catch (const InputError& e) {
    throw InputError(std::string("--system: ") + e.what());
  }
  try {
    model::ModelSource::load(spec.model);
  } catch (const InputError& e) {
    throw InputError(std::string("--model: ") + e.what());
  }
  // Every configuration, from one workload and its layer sums.
  const strategy::Workload w = workload_at_resolution(spec, vm, side);
  if (const auto why = strategy::precision_mismatch(w, c.precision); !why.empty())
    throw InputError("--layer-times '" + spec.layer_times + "' and --precision " +
                     training.precision + ": " + why +
                     " (recommend at the measured precision, or profile at this one)");
  const strategy::LayerSums sums = strategy::sum_layers(w);
  const double usable = w.system.usable_memory_bytes();
  c.spatial_all_dims = all_dims;
  // every strategy x GPU count x batch under the settings `base`
  const auto evaluate = [&](strategy::Config base, const std::vector<std::int64_t>& bs) {
    std::vector<Eval> out;
    out.reserve(kinds.size() * counts.size() * bs.size());
    strategy::Prediction p;
    for (std::size_t ki = 0; ki < kinds.size(); ++ki) {
      for (std::int64_t g : counts) {
        // on 1 GPU every strategy is serial: the others from 2 GPUs, unless serial is left out
        if (kinds[ki] == Kind::Serial ? g != 1 : g == 1 && has_serial) continue;
        for (std::int64_t b : bs) {
          base.kind = kinds[ki];
          base.gpus = g;
          base.batch = b;
          strategy::predict_into(w, sums, base, p);
          out.push_back({kinds[ki], ki, g, b, p.status, p.limit, p.epoch_time_s, p.epoch_compute_s,
                         p.epoch_communication_s, p.memory_per_gpu_bytes,
                         p.status == Status::Ok ? std::string() : p.reason, p.split_layer,
                         p.split_parts});
        }
      }
    }
    return out;
  };
  const std::vector<Eval> evals = evaluate(c, batches);
  const Ranking rank{*objective};
  std::vector<const Eval*> ranked;
  for (const auto& e : evals) {
    if (e.status == Status::Ok) ranked.push_back(&e);
  }
  std::sort(ranked.begin(), ranked.end(),
            [&](const Eval* a, const Eval* b) { return rank(*a, *b); });
  const std::size_t feasible = ranked.size();
  const std::vector<Change> changes =
      feasible > 0 ? std::vector<Change>{}
                   : what_would_fit(c, w, kinds, batches, rank, evaluate,
                                    largest_smaller_batch(w, sums, c, kinds, counts, has_serial,
                                                          batches.front()));
  if (ranked.size() > static_cast<std::size_t>(top)) ranked.resize(static_cast<std::size_t>(top));
  const Eval* winner = ranked.empty() ? nullptr : ranked.front();
  std::vector<std::pair<Kind, std::string>> losers;
  for (std::size_t ki = 0; ki < kinds.size(); ++ki) {
    const bool listed = std::any_of(ranked.begin(), ranked.end(),
                                    [&](const Eval* e) { return e->kind_index == ki; });
    if (listed) continue;
    std::vector<const Eval*> mine;
    for (const auto& e : evals) {
      if (e.kind_index == ki) mine.push_back(&e);
    }
    losers.emplace_back(kinds[ki], why_not(mine, winner, rank, usable));
  }

  if (format == "json") {
    JsonWriter j(std::cout);
    j.begin_object();
    j.key("model").value(w.model.name);
    // a .net model without --dataset: its own, as --dataset would take it (it printed "")
    std::string dataset = spec.dataset;
    if (dataset.empty()) {
      const auto src = model::ModelSource::load(spec.model);
      if (src.paradl())
        dataset = src.paradl()->dataset + ":" + std::to_string(src.paradl()->samples) + ":" +
                  src.default_input().str();
    }
    j.key("dataset").value(dataset);
    j.key("input").value(w.model.input.str());  // a sample, C x spatial (--resolution)
    j.key("system").value(w.system.name);
    j.key("variant").value(strategy::variant_name(*variant));
    write_training_json(j, c);
    j.key("objective").value(objective_name(*objective));
    j.key("evaluated").value(static_cast<std::int64_t>(evals.size()));
    j.key("feasible").value(static_cast<std::int64_t>(feasible));
    j.key("ranked").begin_array();
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const Eval& e = *ranked[i];
      j.begin_object();
      j.key("rank").value(static_cast<std::int64_t>(i + 1));
      j.key("strategy").value(strategy::kind_name(e.kind));
      j.key("gpus").value(e.gpus);
      j.key("batch").value(e.batch);
      j.key("epoch_time_s").value(e.epoch_s);
      j.key("compute_s").value(e.compute_s);
      j.key("communication_s").value(e.communication_s);
      j.key("memory_per_gpu_bytes").value(e.memory_bytes);
      j.key("memory_headroom_bytes").value(usable - e.memory_bytes);
      j.key("gpu_hours").value(e.gpu_hours());
      j.key("limiting_factor").value(strategy::limit_name(e.limit));
      j.key("status").value(strategy::status_name(e.status));
      write_split_layer(j, w, e.split_layer, e.split_parts);
      j.end_object();
    }
    j.end_array();
    j.key("why_not").begin_object();
    for (const auto& [k, reason] : losers) j.key(strategy::kind_name(k)).value(reason);
    j.end_object();
    j.key("if_changed").begin_array();  // empty unless nothing is feasible
    for (const auto& ch : changes) {
      j.begin_object();
      j.key("options").value(ch.options);
      j.key("feasible").value(static_cast<std::int64_t>(ch.feasible));
      j.key("best");
      if (ch.best) {
        j.begin_object();
        j.key("strategy").value(strategy::kind_name(ch.best->kind));
        j.key("gpus").value(ch.best->gpus);
        j.key("batch").value(ch.best->batch);
        j.key("epoch_time_s").value(ch.best->epoch_s);
        j.key("memory_per_gpu_bytes").value(ch.best->memory_bytes);
        j.key("gpu_hours").value(ch.best->gpu_hours());
        j.end_object();
      } else {
        j.null();
      }
      j.end_object();
    }
    j.end_array();
    j.end_object();
    std::cout << '\n';
    return 0;
  }

  std::cout << "ParaDiSE recommendation (" << strategy::variant_name(*variant) << " model)\n"
            << "  model      " << w.model.name << " at " << w.model.input.str() << ", "
            << with_commas(w.dataset_samples) << " samples per epoch\n"
            << "  system     " << w.system.name << " (" << w.system.gpu.name << ", "
            << human_bytes(usable) << " usable per GPU)\n"
            << "  searched   " << kinds.size() << " strategies x GPUs " << join(counts)
            << " x batch " << join(batches) << ": " << evals.size() << " configurations, "
            << feasible << " feasible\n"
            << "  objective  " << objective_name(*objective)
            << (*objective == Objective::Time       ? " (epoch time, shortest first)"
                : *objective == Objective::GpuHours ? " (epoch time x GPUs, fewest first)"
                                                    : " (free device memory, most first)")
            << "\n  training   " << strategy::training_summary(c) << "\n  compute    "
            << strategy::compute_source(w, c) << "\n\n";
  if (ranked.empty()) {
    std::cout << "no feasible configuration\n\n";
  } else {
    TextTable t;
    t.add_column("rank");
    t.add_column("strategy", TextTable::Align::Left);
    t.add_column("GPUs");
    t.add_column("batch");
    t.add_column("epoch s");
    t.add_column("compute s");
    t.add_column("comm s");
    t.add_column("memory/GPU");
    if (*objective == Objective::MemoryHeadroom) t.add_column("headroom");
    t.add_column("GPU-h/epoch");
    t.add_column("limited by", TextTable::Align::Left);
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const Eval& e = *ranked[i];
      std::vector<std::string> row{
          std::to_string(i + 1),       std::string(strategy::kind_name(e.kind)),
          std::to_string(e.gpus),      std::to_string(e.batch),
          fixed(e.epoch_s, 2),         fixed(e.compute_s, 2),
          fixed(e.communication_s, 2), human_bytes(e.memory_bytes)};
      if (*objective == Objective::MemoryHeadroom)
        row.push_back(human_bytes(usable - e.memory_bytes));
      row.push_back(fixed(e.gpu_hours(), 3));
      row.emplace_back(strategy::limit_name(e.limit));
      t.add_row(std::move(row));
    }
    t.print(std::cout);
  }
  if (!losers.empty()) {
    if (ranked.empty()) {
      std::cout << "why each strategy fails:\n";
    } else {
      std::cout << "\nwhy not the others (not in the top " << ranked.size() << "):\n";
    }
    std::size_t width = 0;
    for (const auto& l : losers) width = std::max(width, strategy::kind_name(l.first).size());
    for (const auto& [k, reason] : losers) {
      const auto name = strategy::kind_name(k);
      std::cout << "  " << name << std::string(width - name.size(), ' ') << "  " << reason << '\n';
    }
  }
  if (!changes.empty()) {
    const bool batch_entry = changes.back().options.starts_with("--batch");
    const std::size_t settings = changes.size() - (batch_entry ? 1 : 0);
    std::string parts;  // what the lines are
    if (settings > 0) parts = "each change alone, the rest as given";
    if (settings > 2) parts += "; then the changes together";
    if (batch_entry) parts += std::string(parts.empty() ? "" : "; ") + "the largest smaller batch";
    std::cout << "\nwhat would fit (" << parts << "):\n";
    std::size_t width = 0;
    for (const auto& ch : changes) width = std::max(width, ch.options.size());
    for (const auto& ch : changes) {
      std::cout << "  " << ch.options << std::string(width - ch.options.size(), ' ') << "  ";
      if (!ch.best) {
        std::cout << "nothing fits\n";
        continue;
      }
      const Eval& b = *ch.best;
      std::cout << ch.feasible << " feasible; best " << strategy::kind_name(b.kind) << " on "
                << config_text(b) << ": " << fixed(b.epoch_s, 1) << " s per epoch, "
                << human_bytes(b.memory_bytes) << " per GPU\n";
    }
  }
  return 0;
}

}  // namespace paradise::app
