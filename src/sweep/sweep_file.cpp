// Sweep files (docs/sweep-files.md):
//   [sweep]    model, dataset, system, strategy (lists), gpus, batch (lists or ranges),
//              optional resolution, network_bandwidth_gbps, network_latency_us, the input
//              axes; variant,
//              spatial_split (w, hw, all, auto), p2, segments (counts or auto),
//              max_workload_bytes; paradise variant: precision (fp32, tf32, mixed),
//              optimizer, zero, recompute (several values of one: an axis)
//   [output]   storage = full | maps | summary, reduce (summary: axes), max_bytes
//   [pareto]   objectives (two or three of epoch_time iteration_time gpus gpu_hours memory),
//              group
//   [memlimit] batch (LO..HI | none), resolution (LO..HI [+STEP]), sides (list), max_searches
//   [layer_times] MODEL = FILE or MODEL@SYSTEM = FILE: measured per-layer times (CSV)
// The entries are read by the core INI reader (sweep_file_entries.cpp); the values are
// checked here, in this order, each error at its line.
#include "paradise/sweep/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/input/layer_times.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/sweep/checks.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/system/catalog.hpp"
#include "sweep_file_entries.hpp"

namespace paradise::sweep {
namespace {

using detail::SweepEntries;

// "LO..HI" or "LO..HI +STEP" (integers >= 1).
struct IntRange {
  std::int64_t lo = 0, hi = 0, step = 1;
};
IntRange parse_range(const std::string& text, const Origin& at, const std::string& key) {
  const std::string_view t = trim(text);
  const auto dots = t.find("..");
  if (dots == std::string_view::npos) fail_input(at, key, text, "expected LO..HI or LO..HI +STEP");
  IntRange r;
  try {
    r.lo = parse_int(trim(t.substr(0, dots)), at, key);
    std::string_view rest = trim(t.substr(dots + 2));
    const auto plus = rest.find('+');
    if (plus != std::string_view::npos) {
      r.step = parse_int(trim(rest.substr(plus + 1)), at, key);
      rest = trim(rest.substr(0, plus));
    }
    r.hi = parse_int(rest, at, key);
  } catch (const InputError&) {  // quote the whole value, not the fragment that failed
    fail_input(at, key, text, "expected LO..HI or LO..HI +STEP, in integers");
  }
  if (r.lo < 1 || r.hi < r.lo || r.step < 1)
    fail_input(at, key, text, "needs 1 <= LO <= HI and STEP >= 1");
  return r;
}

// An axis takes each value once (a repeated one would make label selection ambiguous).
template <class T>
void refuse_repeats(const std::vector<T>& values, const Origin& at, const std::string& key,
                    const std::string& text) {
  std::vector<T> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice == sorted.end()) return;
  std::ostringstream v;
  v << *twice;
  fail_input(at, key, text, "lists " + v.str() + " more than once");
}

// [sweep] model, dataset, system, strategy, gpus and batch: each value listed once, every
// name known (the loaders' own messages say why not, at the key's line)
void read_grid_lists(SweepFile& f, const SweepEntries& e) {
  const auto ints = [&](const char* key, const char* name) {
    return parse_int_values(e.value(key), e.at(key), name);
  };
  f.spec.models = parse_names(e.value("sweep.model"), e.at("sweep.model"), "model");
  f.spec.datasets = parse_names(e.value("sweep.dataset"), e.at("sweep.dataset"), "dataset");
  f.spec.systems = parse_names(e.value("sweep.system", "abci"), e.at("sweep.system"), "system");
  f.spec.strategies = parse_names(e.value("sweep.strategy"), e.at("sweep.strategy"), "strategy");
  f.spec.gpus = ints("sweep.gpus", "gpus");
  f.spec.batch = ints("sweep.batch", "batch");
  const auto once = [&](const auto& values, const char* key, const char* name,
                        const std::string& fallback = "") {
    refuse_repeats(values, e.at(key), name, e.value(key, fallback));
  };
  once(f.spec.models, "sweep.model", "model");
  once(f.spec.datasets, "sweep.dataset", "dataset");
  once(f.spec.systems, "sweep.system", "system", "abci");
  once(f.spec.strategies, "sweep.strategy", "strategy");
  once(f.spec.gpus, "sweep.gpus", "gpus");
  once(f.spec.batch, "sweep.batch", "batch");
  const auto known = [&](const std::vector<std::string>& names, const char* key, const char* name,
                         auto&& load) {
    for (const auto& n : names) {
      try {
        load(n);
      } catch (const InputError& x) {
        fail_input(e.at(key), name, n, x.what());
      }
    }
  };
  known(f.spec.models, "sweep.model", "model",
        [](const std::string& n) { model::ModelSource::load(n); });
  for (const auto& n : f.spec.datasets) model::find_dataset(n, e.at("sweep.dataset"));
  known(f.spec.systems, "sweep.system", "system",
        [](const std::string& n) { system::find_system(n); });
  known(f.spec.strategies, "sweep.strategy", "strategy", [](const std::string& n) {
    if (!strategy::kind_from_name(n)) throw InputError("expected one of " + strategy::kind_list());
  });
}

// A list of integers >= 1, each listed once.
std::vector<std::int64_t> positive_ints(const SweepEntries& e, const char* key, const char* name) {
  const std::string text = e.value(key);
  auto v = parse_int_values(text, e.at(key), name);  // not const: moved out
  for (auto x : v) {
    if (x < 1) fail_input(e.at(key), name, text, "every value must be >= 1");
  }
  refuse_repeats(v, e.at(key), name, text);
  return v;
}

// A list of positive reals (decimals allowed), each once.
std::vector<double> positive_reals(const SweepEntries& e, const std::string& key,
                                   const std::string& name) {
  const std::string text = e.value(key);
  auto v = parse_positive_real_values(text, e.at(key), name);
  refuse_repeats(v, e.at(key), name, text);
  return v;
}

// [sweep] input_cpu_cores_per_node, input_node_read_GBps, input_filesystem_GBps
void read_input_axes(SweepFile& f, const SweepEntries& e) {
  if (e.has("sweep.input_cpu_cores_per_node"))
    f.spec.input_cpu_cores =
        positive_ints(e, "sweep.input_cpu_cores_per_node", "input_cpu_cores_per_node");
  if (e.has("sweep.input_node_read_GBps"))
    f.spec.input_node_read_GBps =
        positive_reals(e, "sweep.input_node_read_GBps", "input_node_read_GBps");
  if (e.has("sweep.input_filesystem_GBps"))
    f.spec.input_filesystem_GBps =
        positive_reals(e, "sweep.input_filesystem_GBps", "input_filesystem_GBps");
}

// [sweep] resolution, network_bandwidth_gbps, network_latency_us and the input axes
void read_value_axes(SweepFile& f, const SweepEntries& e) {
  if (e.has("sweep.resolution"))
    f.spec.resolution = positive_ints(e, "sweep.resolution", "resolution");
  if (e.has("sweep.resolution_samples")) {  // samples per epoch at each side
    const std::string t(trim(e.value("sweep.resolution_samples")));
    if (t != "fixed" && t != "voxels")
      fail_input(e.at("sweep.resolution_samples"), "resolution_samples", t,
                 "expected fixed (the dataset's count at every side) or voxels (the same "
                 "voxels per epoch)");
    f.spec.resolution_samples =
        t == "voxels" ? model::SamplesAtSide::SameVoxels : model::SamplesAtSide::Fixed;
  }
  // the network values in SI units from here on; the output keeps them as written
  if (e.has("sweep.network_bandwidth_gbps")) {
    for (std::int64_t v :
         positive_ints(e, "sweep.network_bandwidth_gbps", "network_bandwidth_gbps"))
      f.spec.network_bandwidth.push_back(gbit_per_s(v));
  }
  if (e.has("sweep.network_latency_us")) {
    for (double v : positive_reals(e, "sweep.network_latency_us", "network_latency_us"))
      f.spec.network_latency.push_back(microseconds(v));
  }
  read_input_axes(f, e);
}

// A training setting: a list of names (several values make an axis), every value known and
// listed once.
template <class FromName>
auto setting(const SweepEntries& e, const char* key, const char* name, FromName from_name,
             const std::string& expected) {
  using Value = typename decltype(from_name(std::string()))::value_type;
  std::vector<Value> values;
  if (!e.has(key)) return values;
  const std::string text = e.value(key);
  for (const auto& n : parse_names(text, e.at(key), name)) {
    const auto v = from_name(n);
    if (!v) fail_input(e.at(key), name, n, expected);
    if (std::find(values.begin(), values.end(), *v) != values.end())
      fail_input(e.at(key), name, text,
                 "'" + n + "' repeats a value of the list" +
                     (std::string(name) == "precision" && n != "fp32" && n != "tf32"
                          ? " (fp16 and bf16 are both mixed)"
                          : ""));
    values.push_back(*v);
  }
  return values;
}

// [sweep] precision, optimizer, zero, recompute, implementation, eval_samples
void read_training_settings(SweepFile& f, const SweepEntries& e) {
  f.spec.precisions = setting(
      e, "sweep.precision", "precision",
      [](const std::string& n) { return strategy::precision_from_name(n); },
      "expected fp32, tf32 or mixed (fp16 and bf16 are taken as mixed)");
  f.spec.optimizers = setting(
      e, "sweep.optimizer", "optimizer",
      [](const std::string& n) { return strategy::optimizer_from_name(n); },
      "expected sgd, momentum or adam");
  f.spec.zero_stages = setting(
      e, "sweep.zero", "zero",
      [](const std::string& n) -> std::optional<std::int64_t> {
        if (n.size() != 1 || n[0] < '0' || n[0] > '3') return std::nullopt;
        return n[0] - '0';
      },
      "expected a ZeRO stage 0 to 3");
  f.spec.recomputes = setting(
      e, "sweep.recompute", "recompute",
      [](const std::string& n) -> std::optional<std::uint8_t> {
        if (n != "true" && n != "false") return std::nullopt;
        return static_cast<std::uint8_t>(n == "true");
      },
      "expected true or false");
  if (e.has("sweep.implementation")) {  // each a built-in or a file, listed once
    const std::string text = e.value("sweep.implementation");
    const Origin at = e.at("sweep.implementation");
    f.spec.implementations = parse_names(text, at, "implementation");
    refuse_repeats(f.spec.implementations, at, "implementation", text);
    for (const auto& n : f.spec.implementations) {
      try {
        implementation::find_implementation(n);
      } catch (const InputError& x) {
        fail_input(at, "implementation", n, x.what());
      }
    }
  }
  if (e.has("sweep.eval_samples")) {  // one value: every point's
    const std::string t = e.value("sweep.eval_samples");
    const Origin at = e.at("sweep.eval_samples");
    const double v = parse_double(t, at, "eval_samples");
    if (!(v >= 0) || v != std::floor(v) || v > 9e18)
      fail_input(at, "eval_samples", t, "must be a whole number of samples >= 0");
    f.spec.eval_samples = static_cast<std::int64_t>(v);
  }
}

// Whether some strategy of the sweep has the shape `has` asks about (strategy::has_groups,
// ...).
bool has_strategy(const SweepFile& f, bool (*has)(strategy::Kind)) {
  return std::any_of(f.spec.strategies.begin(), f.spec.strategies.end(), [&](const auto& n) {
    const auto k = strategy::kind_from_name(n);
    return k && has(*k);
  });
}

// [sweep] spatial_split, p2 and segments (several values of one: an axis; auto: the best
// per point, docs/cost-model.md §searched-shapes); each given only where a strategy of the
// sweep has it (several splits: a spatial one)
void read_shape_settings(SweepFile& f, const SweepEntries& e) {
  const auto count = [](const std::string& n) { return strategy::count_from_text(n); };
  const std::string counts = "expected a whole number >= 1 or auto";
  f.spec.p2s = setting(e, "sweep.p2", "p2", count, counts);
  f.spec.segment_counts = setting(e, "sweep.segments", "segments", count, counts);
  f.spec.spatial_splits = setting(
      e, "sweep.spatial_split", "spatial_split",
      [](const std::string& n) { return strategy::spatial_split_from_name(n); },
      "expected w, hw, all or auto");
  // default: the paradise variant's best split per point, ParaDL's width-only split
  const auto variant = strategy::variant_from_name(e.value("sweep.variant", "paradise"));
  if (f.spec.spatial_splits.empty())  // (an unknown variant is refused by read_variant)
    f.spec.spatial_splits = {variant == strategy::Variant::Paradl ? strategy::SpatialSplit::W
                                                                  : strategy::SpatialSplit::Auto};
  const auto refuse = [&](const char* key, const char* name, const std::string& why) {
    fail_input(e.at(key), name, e.value(key), why);
  };
  if (!f.spec.p2s.empty() && !has_strategy(f, strategy::has_groups))
    refuse("sweep.p2", "p2",
           "GPUs per group of the hybrids (data+filter, data+spatial, data+pipeline): no "
           "strategy of this sweep has groups");
  if (!f.spec.segment_counts.empty() && !has_strategy(f, strategy::has_micro_batches))
    refuse("sweep.segments", "segments",
           "micro-batches of a pipeline (pipeline, data+pipeline): no strategy of this sweep "
           "has them");
  if (f.spec.spatial_splits.size() > 1 && !has_strategy(f, strategy::splits_samples))
    refuse("sweep.spatial_split", "spatial_split",
           "several splits make an axis of spatial and data+spatial's splits: no strategy of "
           "this sweep splits samples");
}

// A list of the sweep's axes (or optional ones it lacks), each named once.
std::vector<std::string> axis_names(const SweepFile& f, const SweepEntries& e, const char* key,
                                    const char* name) {
  auto names = parse_names(e.value(key), e.at(key), name);  // not const: moved out
  refuse_repeats(names, e.at(key), name, e.value(key));
  const auto grid = make_grid(f.spec);
  for (const auto& n : names) {
    bool found = false;
    for (const auto& a : grid.axes()) found = found || a.name == n;
    if (!found && !optional_axis(n)) fail_input(e.at(key), name, n, "not an axis of this sweep");
  }
  return names;
}

// [output] reduce (storage is checked later: compared as written here)
void read_reduce(SweepFile& f, const SweepEntries& e, const std::string& storage) {
  if (!e.has("output.reduce")) return;
  const std::string text = e.value("output.reduce");
  const Origin at = e.at("output.reduce");
  f.reduce = axis_names(f, e, "output.reduce", "reduce");
  if (storage != "summary")
    fail_input(at, "reduce", text, "maps are reduced only with storage = summary");
  if (Reduction(make_grid(f.spec), f.reduce).kept().empty())
    fail_input(at, "reduce", text,
               "every axis is reduced: keep at least one (the overall best is the summary "
               "line's and the Pareto group's)");
}

// [pareto] group, objectives
void read_pareto(SweepFile& f, const SweepEntries& e) {
  if (e.has("pareto.group")) f.pareto.group = axis_names(f, e, "pareto.group", "group");
  if (!e.has("pareto.objectives")) return;
  const std::string text = e.value("pareto.objectives");
  const Origin at = e.at("pareto.objectives");
  const auto names = parse_names(text, at, "objectives");
  if (names.size() != 2 && names.size() != 3)
    fail_input(at, "objectives", text, "expected two or three objectives");
  f.pareto.objectives.clear();
  for (const auto& name : names) {
    const auto o = objective_from_name(name);
    if (!o)
      fail_input(at, "objectives", name,
                 "expected epoch_time, iteration_time, gpus, gpu_hours, memory, time_to_train or "
                 "gpu_hours_to_train");
    if (std::find(f.pareto.objectives.begin(), f.pareto.objectives.end(), *o) !=
        f.pareto.objectives.end())
      fail_input(at, "objectives", name, "named twice");
    f.pareto.objectives.push_back(*o);
  }
  // time to train compares batches (its epochs grow with the batch): by default one front
  // spans them, where the epoch-time objectives keep a front per batch
  const bool to_train_objective =
      std::any_of(f.pareto.objectives.begin(), f.pareto.objectives.end(), to_train);
  if (to_train_objective && !e.has("pareto.group"))
    std::erase(f.pareto.group, std::string("batch"));
}

// [memlimit] batch, resolution, sides, max_searches
void read_memlimit(SweepFile& f, const SweepEntries& e) {
  if (e.has("memlimit.batch")) {
    const std::string t = e.value("memlimit.batch");
    if (trim(t) == "none") {
      f.memlimit.batch = false;
    } else {
      const auto r = parse_range(t, e.at("memlimit.batch"), "batch");
      if (r.step != 1) fail_input(e.at("memlimit.batch"), "batch", t, "no step: LO..HI");
      f.memlimit.batch_lo = r.lo;
      f.memlimit.batch_hi = r.hi;
    }
  }
  if (e.has("memlimit.resolution")) {
    const auto r =
        parse_range(e.value("memlimit.resolution"), e.at("memlimit.resolution"), "resolution");
    f.memlimit.resolution = true;
    f.memlimit.resolution_lo = r.lo;
    f.memlimit.resolution_hi = r.hi;
    f.memlimit.resolution_step = r.step;
  }
  if (e.has("memlimit.sides")) f.memlimit.sides = positive_ints(e, "memlimit.sides", "sides");
  if (e.has("memlimit.max_searches")) {
    const std::string t = e.value("memlimit.max_searches");
    const Origin at = e.at("memlimit.max_searches");
    f.max_searches = parse_double(t, at, "max_searches");
    if (!(f.max_searches >= 0) || f.max_searches != std::floor(f.max_searches))
      fail_input(at, "max_searches", t, "must be a whole number >= 0");
  }
}

// A ParaDL .net model's shapes are fixed: every resolution would be an invalid point, and a
// side search would step through every side of its range.
void refuse_fixed_shapes(const SweepFile& f, const SweepEntries& e) {
  if (f.spec.resolution.empty() && !f.memlimit.resolution && f.memlimit.sides.empty()) return;
  for (const auto& m : f.spec.models) {
    if (!model::ModelSource::load(m).reshapeable())
      fail_input(e.at("sweep.model"), "model", m,
                 "a ParaDL .net file has a fixed input shape: not with a resolution axis or "
                 "[memlimit] resolution / sides");
  }
}

// [sweep] variant; under the paradl variant, which models fp32 and has
// none of the paradise variant's policies, precision, optimizer, zero and recompute refused
void read_variant(SweepFile& f, const SweepEntries& e) {
  const std::string variant = e.value("sweep.variant", "paradise");
  const auto v = strategy::variant_from_name(variant);
  if (!v) fail_input(e.at("sweep.variant"), "variant", variant, "expected paradl or paradise");
  f.spec.variant = *v;
  if (f.spec.variant != strategy::Variant::Paradl) return;
  for (const auto p : f.spec.precisions) {
    if (!paradl_takes(p))
      fail_input(e.at("sweep.precision"), "precision", e.value("sweep.precision"), kParadlFp32Only);
  }
  for (const char* key : {"sweep.optimizer", "sweep.zero", "sweep.recompute", "sweep.eval_samples",
                          "sweep.implementation"}) {
    if (e.has(key))
      fail_input(e.at(key), std::string(key).substr(6), trim(e.value(key)),
                 paradl_policy_refusal("variant = paradise"));
  }
}

// One [layer_times] entry: MODEL or MODEL@SYSTEM of this sweep, a CSV whose own errors are
// said at this line, measured at the one precision the sweep models
void read_layer_times_entry(SweepFile& f, const SweepEntries& e, const IniDottedEntry& entry) {
  const Origin o = {f.path, entry.line};
  const std::string& key = entry.name;
  const std::string& file = entry.value;
  const std::string name = key.substr(12);  // after "layer_times."
  const auto at_sign = name.find('@');
  const std::string of_model = name.substr(0, at_sign);
  const auto& models = f.spec.models;
  const auto& systems = f.spec.systems;
  if (std::find(models.begin(), models.end(), of_model) == models.end())
    fail_input(o, key, file, "'" + of_model + "' is not a model of this sweep");
  if (at_sign != std::string::npos &&
      std::find(systems.begin(), systems.end(), name.substr(at_sign + 1)) == systems.end())
    fail_input(o, key, file, "'" + name.substr(at_sign + 1) + "' is not a system of this sweep");
  if (file.empty()) fail_input(o, key, file, "expected a layer-times CSV file");
  std::string measured;  // the file's precision column ("": any precision)
  try {
    const auto rows = input::read_layer_times(file);
    if (!rows.empty()) measured = rows.front().precision;  // one per file
  } catch (const InputError& x) {
    fail_input(o, key, file, x.what());
  }
  // times measured at one precision time only that one: every value of the precision axis
  // must be it. Without one, the paradise variant takes the measured precision
  // (strategy::default_precision) and the paradl variant models fp32.
  const auto at_measured = strategy::precision_from_name(measured);
  const bool paradl = f.spec.variant == strategy::Variant::Paradl;
  const std::vector<strategy::Precision> used = !f.spec.precisions.empty() ? f.spec.precisions
                                                : paradl ? std::vector{strategy::Precision::Fp32}
                                                         : std::vector<strategy::Precision>{};
  for (const auto p : used) {
    if (measured.empty() || *at_measured == p) continue;
    fail_input(
        o, key, file,
        "measured in " + measured + ", not " + std::string(strategy::precision_name(p)) +
            (f.spec.precisions.empty() ? " (the paradl variant models fp32: profile in fp32)"
                                       : " (line " + std::to_string(e.at("sweep.precision").line) +
                                             ": precision must be the measured one alone)"));
  }
  if (!f.spec.resolution.empty())
    fail_input(o, key, file,
               "per-layer times are measured at the dataset's own resolution: not with a "
               "resolution axis");
  f.spec.layer_times[name] = file;
}

// One [convergence] entry: MODEL or MODEL@DATASET of this sweep = E_MIN[:NOISE_BATCH]
void read_convergence_entry(SweepFile& f, const IniDottedEntry& entry) {
  const Origin o = {f.path, entry.line};
  const std::string name = entry.name.substr(12);  // after "convergence."
  const auto at_sign = name.find('@');
  const std::string of_model = name.substr(0, at_sign);
  const auto& models = f.spec.models;
  const auto& datasets = f.spec.datasets;
  if (std::find(models.begin(), models.end(), of_model) == models.end())
    fail_input(o, entry.name, entry.value, "'" + of_model + "' is not a model of this sweep");
  if (at_sign != std::string::npos &&
      std::find(datasets.begin(), datasets.end(), name.substr(at_sign + 1)) == datasets.end())
    fail_input(o, entry.name, entry.value,
               "'" + name.substr(at_sign + 1) + "' is not a dataset of this sweep");
  auto c = model::parse_convergence(entry.value, o, entry.name);
  c.source = "the sweep file's [convergence] " + name;
  f.spec.convergence[name] = c;
}

// A size limit in bytes, > 0.
void read_bytes(double& target, const SweepEntries& e, const char* key, const char* name) {
  if (!e.has(key)) return;
  const std::string text = e.value(key);
  target = parse_double(text, e.at(key), name);
  if (target <= 0) fail_input(e.at(key), name, text, "must be > 0");
}

}  // namespace

std::string_view storage_name(Storage s) {
  switch (s) {
    case Storage::full:
      return "full";
    case Storage::maps:
      return "maps";
    case Storage::summary:
      return "summary";
  }
  return "";
}

std::optional<Storage> storage_from_name(std::string_view text) {
  for (const Storage s : {Storage::full, Storage::maps, Storage::summary}) {
    if (text == storage_name(s)) return s;
  }
  return std::nullopt;
}

SweepFile read_sweep_file(const std::string& path) {
  return parse_sweep_file(detail::read_sweep_text(path), path);
}

SweepFile parse_sweep_file(std::string text, const std::string& path) {
  detail::check_sweep_text(path, text);
  SweepFile f;
  f.path = path;
  f.text = std::move(text);
  const SweepEntries e(path, f.text);
  const std::string storage = e.value("output.storage", "maps");
  read_grid_lists(f, e);
  read_value_axes(f, e);
  read_training_settings(f, e);
  read_shape_settings(f, e);
  read_reduce(f, e, storage);
  read_pareto(f, e);
  read_memlimit(f, e);
  refuse_fixed_shapes(f, e);
  if (first_below_one(f.spec.gpus))
    fail_input(e.at("sweep.gpus"), "gpus", e.value("sweep.gpus"), "every GPU count must be >= 1");
  if (first_below_one(f.spec.batch))
    fail_input(e.at("sweep.batch"), "batch", e.value("sweep.batch"), "every batch must be >= 1");
  read_variant(f, e);
  for (const auto& entry : e.layer_times()) read_layer_times_entry(f, e, entry);
  for (const auto& entry : e.convergence()) read_convergence_entry(f, entry);
  f.spec.needs_epochs =
      std::any_of(f.pareto.objectives.begin(), f.pareto.objectives.end(), to_train);
  if (const auto level = storage_from_name(storage))
    f.storage = *level;
  else
    fail_input(e.at("output.storage"), "storage", storage, "expected full, maps or summary");
  read_bytes(f.max_output_bytes, e, "output.max_bytes", "max_bytes");
  read_bytes(f.spec.max_workload_bytes, e, "sweep.max_workload_bytes", "max_workload_bytes");
  return f;
}

}  // namespace paradise::sweep
