// Sweep files (README "Sweep files"):
//   [sweep]    model, dataset, system, strategy (lists), gpus, batch (lists or ranges),
//              optional resolution, network_bandwidth_gbps, network_latency_us; variant,
//              spatial_split (w | all: spatial's and data+spatial's splits),
//              max_workload_bytes; paradise variant: precision (fp32, tf32, mixed),
//              optimizer, zero, recompute (several values of one: an axis)
//   [output]   storage = full | maps | summary, reduce (summary: axes), max_bytes
//   [pareto]   objectives (two or three of epoch_time iteration_time gpus gpu_hours memory),
//              group
//   [memlimit] batch (LO..HI | none), resolution (LO..HI [+STEP]), sides (list), max_searches
//   [layer_times] MODEL = FILE or MODEL@SYSTEM = FILE: measured per-layer times (CSV)
#include "sweep_file.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/system/catalog.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

// The line on which "section.key" is set (its nth setting), for error messages (Boost does
// not keep it).
// The line of the nth "key = value" of a dotted section.key (0 if none), and the section it
// is under: Boost joins a section and a key with a dot, and either may hold dots themselves
// ([sweep.x], a [layer_times] key naming tests/data/x.model), so each split is tried.
std::pair<int, std::string> find_key(const std::string& text, const std::string& dotted,
                                     int nth = 1) {
  for (std::size_t dot = dotted.find('.');; dot = dotted.find('.', dot + 1)) {
    // none: a key before the first section
    const std::string section = dot == std::string::npos ? "" : dotted.substr(0, dot);
    const std::string key = dot == std::string::npos ? dotted : dotted.substr(dot + 1);
    std::istringstream in(text);
    std::string line, current;
    int n = 0, left = nth;
    while (std::getline(in, line)) {
      ++n;
      const std::string_view t = trim(line);
      if (t.starts_with("[")) current = std::string(trim(t.substr(1, t.find(']') - 1)));
      const auto eq = t.find('=');
      if (current == section && eq != std::string_view::npos && trim(t.substr(0, eq)) == key &&
          --left == 0)
        return {n, section};
    }
    if (dot == std::string::npos) return {0, ""};
  }
}
int line_of(const std::string& text, const std::string& dotted, int nth = 1) {
  return find_key(text, dotted, nth).first;
}

// The value on line `n` of a "key = value" text ("" if none).
std::string value_at(const std::string& text, int n) {
  std::istringstream in(text);
  std::string line;
  for (int i = 0; i < n && std::getline(in, line); ++i) {
  }
  const auto eq = line.find('=');
  if (n < 1 || eq == std::string::npos) return "";
  return std::string(trim(std::string_view(line).substr(eq + 1, line.find('#', eq) - eq - 1)));
}

// The first line that is neither blank, a [section] nor key = value once its # comment is
// cut off: the one Boost's parser refuses (it knows no other comments, and trims only
// " \t\r\n": a line of a form feed is no blank line to it).
std::string_view trim_as_boost(std::string_view t) {
  t.remove_prefix(std::min(t.size(), t.find_first_not_of(" \t\r\n")));
  t.remove_suffix(t.size() - std::min(t.size(), t.find_last_not_of(" \t\r\n") + 1));
  return t;
}
int first_malformed_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string_view t = trim_as_boost(std::string_view(line).substr(0, line.find('#')));
    if (t.empty()) continue;
    if (t.front() == '[' ? t.back() != ']' : t.find('=') == std::string_view::npos) return n;
  }
  return 0;
}

// The text with each "[ name ]" written "[name]", line for line: Boost keeps the spaces in
// the section's name, which then matched no section ("unknown section [ sweep ]").
std::string without_spaces_in_sections(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::string_view t = trim(std::string_view(line).substr(0, line.find('#')));
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']')
      line = "[" + std::string(trim(t.substr(1, t.size() - 2))) + "]";
    out += line + "\n";
  }
  return out;
}

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

// [sweep] precision, optimizer, zero and recompute under the paradl variant, which models
// fp32 and has none of the paradise variant's policies: refused
template <class At>
void read_training_keys(SweepFile& f, const po::variables_map& vm, const At& at) {
  const auto text_of = [&](const char* key) {
    return std::string(trim(vm[key].as<std::string>()));
  };
  if (f.spec.variant == strategy::Variant::Paradl) {
    for (const auto p : f.spec.precisions) {
      if (p != strategy::Precision::Fp32)
        fail_input(at("sweep.precision"), "precision", vm["sweep.precision"].as<std::string>(),
                   "the paradl variant models fp32 only");
    }
    for (const char* key : {"sweep.optimizer", "sweep.zero", "sweep.recompute"}) {
      if (vm.count(key))
        fail_input(at(key), std::string(key).substr(6), text_of(key),
                   "a policy of the paradise variant; the paradl variant reproduces ParaDL, "
                   "which has none (drop it, or variant = paradise)");
    }
  }
}

}  // namespace

SweepFile read_sweep_file(const std::string& path) {
  SweepFile f;
  f.path = path;
  std::string storage = "maps";  // [output] storage as written, f.storage once checked
  const PathStatus where = path_status(path);
  if (where.kind == PathKind::directory)
    throw InputError(path + ": is a directory, not a sweep file");
  if (where.kind == PathKind::missing) throw InputError(path + ": no such sweep file");
  if (where.kind == PathKind::unreachable)
    throw InputError(path + ": cannot open sweep file (" + where.why + ")");
  f.text = read_input_file(path, "sweep file", std::size_t{1} << 20);
  // the output keeps the text in an attribute of UTF-8 strings: bytes that are not UTF-8
  // (a Latin-1 comment) would make strict readers fail on the file
  if (const auto bad = first_invalid_utf8(f.text); bad != std::string::npos) {
    const auto line =
        1 + std::count(f.text.begin(), f.text.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    std::ostringstream hex;
    hex << std::hex << std::setw(2) << std::setfill('0')
        << static_cast<unsigned>(static_cast<unsigned char>(f.text[bad]));
    throw InputError(path + ":" + std::to_string(line) + ": byte " +
                     with_commas(static_cast<std::int64_t>(bad) + 1) + " (0x" + hex.str() +
                     ") is not UTF-8; the output keeps the sweep file's text as UTF-8: save the "
                     "file as UTF-8");
  }
  // the output keeps the text in one attribute, which an HDF5 object header message limits
  // to 64 KiB (refused here so that --dry-run says so too, not at the write)
  constexpr std::size_t kMaxText = 65000;
  if (f.text.size() > kMaxText)
    throw InputError(path + ": " + with_commas(static_cast<std::int64_t>(f.text.size())) +
                     " bytes; the output keeps the sweep file's text in one HDF5 attribute, "
                     "at most " +
                     with_commas(static_cast<std::int64_t>(kMaxText)) +
                     " bytes: shorten its comments, or write long lists as ranges (A..B +S)");
  std::string model, dataset, system = "abci", strategy, gpus, batch, variant = "paradise",
                              spatial_split = "w";
  po::options_description d;
  d.add_options()("sweep.model", po::value(&model)->required())(
      "sweep.dataset", po::value(&dataset)->required())("sweep.system", po::value(&system))(
      "sweep.strategy", po::value(&strategy)->required())(
      "sweep.gpus", po::value(&gpus)->required())("sweep.batch", po::value(&batch)->required())(
      "sweep.variant", po::value(&variant))("sweep.spatial_split", po::value(&spatial_split))(
      "sweep.resolution", po::value<std::string>())("sweep.max_workload_bytes",
                                                    po::value<std::string>())(
      "sweep.network_bandwidth_gbps", po::value<std::string>())("sweep.network_latency_us",
                                                                po::value<std::string>())(
      "sweep.precision", po::value<std::string>())("sweep.optimizer", po::value<std::string>())(
      "sweep.zero", po::value<std::string>())("sweep.recompute", po::value<std::string>())(
      "output.storage", po::value(&storage))("output.max_bytes", po::value<std::string>())(
      "output.reduce", po::value<std::string>())("pareto.objectives", po::value<std::string>())(
      "pareto.group", po::value<std::string>())("memlimit.batch", po::value<std::string>())(
      "memlimit.resolution", po::value<std::string>())("memlimit.sides", po::value<std::string>())(
      "memlimit.max_searches", po::value<std::string>());
  po::variables_map vm;
  std::istringstream text(without_spaces_in_sections(f.text));
  std::vector<std::pair<std::string, std::string>> layer_times;  // [layer_times] key, file
  try {
    const po::parsed_options parsed = po::parse_config_file(text, d, true);
    for (const auto& o : parsed.options) {
      if (!o.unregistered) continue;
      if (!o.string_key.starts_with("layer_times.") || o.value.size() != 1) {
        if (o.string_key.find('.') == std::string::npos)
          fail_input({path, line_of(f.text, o.string_key)}, o.string_key,
                     o.value.empty() ? "" : o.value.front(),
                     "a key before any section; put it under [sweep]");
        const auto [line, found] = find_key(f.text, o.string_key);
        const std::string section =
            line > 0 ? found : o.string_key.substr(0, o.string_key.find('.'));
        bool known_section = section == "layer_times";  // its keys are the user's
        for (const auto& option : d.options())
          known_section = known_section || option->long_name().starts_with(section + ".");
        if (o.string_key.ends_with('.'))  // "= 5": Boost's key is the section and a dot
          fail_input({path, line}, o.string_key, o.value.empty() ? "" : o.value.front(),
                     "a value without a key (expected KEY = VALUE)");
        fail_input({path, line}, o.string_key, o.value.empty() ? "" : o.value.front(),
                   known_section ? "unknown key"
                                 : "unknown section [" + section +
                                       "]; expected [sweep], [output], [pareto], [memlimit] or "
                                       "[layer_times]");
      }
      const auto twice = std::find_if(layer_times.begin(), layer_times.end(),
                                      [&](const auto& e) { return e.first == o.string_key; });
      if (twice != layer_times.end())
        fail_input({path, line_of(f.text, o.string_key, 2)}, o.string_key, o.value.front(),
                   "set more than once");
      layer_times.emplace_back(o.string_key, o.value.front());
    }
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::required_option& e) {
    std::string key = e.get_option_name();
    if (key.starts_with("--")) key = key.substr(2);
    fail_input({path, 0}, key, "",
               "missing (every sweep needs model, dataset, strategy, gpus, batch)");
  } catch (const po::multiple_occurrences& e) {
    const std::string key =
        e.get_option_name().substr(e.get_option_name().starts_with("--") ? 2 : 0);
    fail_input({path, line_of(f.text, key, 2)}, key, value_at(f.text, line_of(f.text, key, 2)),
               "set more than once (one line per key; a list is A, B, C)");
  } catch (const po::invalid_config_file_syntax& e) {
    // Boost's message is the raw line; said here as every other error (escaped, cut short)
    const int bad = first_malformed_line(f.text);
    if (bad == 0) throw InputError(path + ": " + printable(e.what(), false, 200));
    std::istringstream lines(f.text);
    std::string line;
    for (int n = 0; n < bad && std::getline(lines, line); ++n) {
    }
    fail_input({path, bad}, "line", trim_as_boost(line),
               "expected [section], key = value, a # comment or a blank line");
  } catch (const po::error& e) {
    throw InputError(path + ": " + e.what());
  }
  const auto at = [&](const char* key) { return Origin{path, line_of(f.text, key)}; };
  f.spec.models = sweep::parse_names(model, at("sweep.model"), "model");
  f.spec.datasets = sweep::parse_names(dataset, at("sweep.dataset"), "dataset");
  f.spec.systems = sweep::parse_names(system, at("sweep.system"), "system");
  f.spec.strategies = sweep::parse_names(strategy, at("sweep.strategy"), "strategy");
  f.spec.gpus = sweep::parse_int_values(gpus, at("sweep.gpus"), "gpus");
  f.spec.batch = sweep::parse_int_values(batch, at("sweep.batch"), "batch");
  refuse_repeats(f.spec.models, at("sweep.model"), "model", model);
  refuse_repeats(f.spec.datasets, at("sweep.dataset"), "dataset", dataset);
  refuse_repeats(f.spec.systems, at("sweep.system"), "system", system);
  refuse_repeats(f.spec.strategies, at("sweep.strategy"), "strategy", strategy);
  refuse_repeats(f.spec.gpus, at("sweep.gpus"), "gpus", gpus);
  refuse_repeats(f.spec.batch, at("sweep.batch"), "batch", batch);
  // every name known, said at its line (the loaders' own messages say why)
  const auto known = [&](const std::vector<std::string>& names, const char* key, const char* name,
                         auto&& load) {
    for (const auto& n : names) {
      try {
        load(n);
      } catch (const InputError& e) {
        fail_input(at(key), name, n, e.what());
      }
    }
  };
  known(f.spec.models, "sweep.model", "model",
        [](const std::string& n) { model::ModelSource::load(n); });
  for (const auto& n : f.spec.datasets) model::find_dataset(n, at("sweep.dataset"));
  known(f.spec.systems, "sweep.system", "system",
        [](const std::string& n) { system::find_system(n); });
  known(f.spec.strategies, "sweep.strategy", "strategy", [](const std::string& n) {
    if (!strategy::kind_from_name(n)) throw InputError("expected one of " + strategy::kind_list());
  });
  const auto text_of = [&](const char* key) { return vm[key].as<std::string>(); };
  const auto positive_ints = [&](const char* key, const char* name) {
    const auto v = sweep::parse_int_values(text_of(key), at(key), name);
    for (auto x : v) {
      if (x < 1) fail_input(at(key), name, text_of(key), "every value must be >= 1");
    }
    refuse_repeats(v, at(key), name, text_of(key));
    return v;
  };
  if (vm.count("sweep.resolution"))
    f.spec.resolution = positive_ints("sweep.resolution", "resolution");
  if (vm.count("sweep.network_bandwidth_gbps"))
    f.spec.network_bandwidth_gbps =
        positive_ints("sweep.network_bandwidth_gbps", "network_bandwidth_gbps");
  if (vm.count("sweep.network_latency_us")) {
    const auto v = sweep::parse_positive_real_values(
        text_of("sweep.network_latency_us"), at("sweep.network_latency_us"), "network_latency_us");
    refuse_repeats(v, at("sweep.network_latency_us"), "network_latency_us",
                   text_of("sweep.network_latency_us"));
    f.spec.network_latency_us = v;
  }
  // the training settings: a list of names each (several values make an axis), every
  // value known and listed once
  const auto settings = [&](const char* key, const char* name, auto from_name,
                            const std::string& expected) {
    using Value = typename decltype(from_name(std::string()))::value_type;
    std::vector<Value> values;
    if (!vm.count(key)) return values;
    for (const auto& n : sweep::parse_names(text_of(key), at(key), name)) {
      const auto v = from_name(n);
      if (!v) fail_input(at(key), name, n, expected);
      if (std::find(values.begin(), values.end(), *v) != values.end())
        fail_input(at(key), name, text_of(key),
                   "'" + n + "' repeats a value of the list" +
                       (std::string(name) == "precision" && n != "fp32" && n != "tf32"
                            ? " (fp16 and bf16 are both mixed)"
                            : ""));
      values.push_back(*v);
    }
    return values;
  };
  f.spec.precisions = settings(
      "sweep.precision", "precision",
      [](const std::string& n) { return strategy::precision_from_name(n); },
      "expected fp32, tf32 or mixed (fp16 and bf16 are taken as mixed)");
  f.spec.optimizers = settings(
      "sweep.optimizer", "optimizer",
      [](const std::string& n) { return strategy::optimizer_from_name(n); },
      "expected sgd, momentum or adam");
  f.spec.zero_stages = settings(
      "sweep.zero", "zero",
      [](const std::string& n) -> std::optional<std::int64_t> {
        if (n.size() != 1 || n[0] < '0' || n[0] > '3') return std::nullopt;
        return n[0] - '0';
      },
      "expected a ZeRO stage 0 to 3");
  f.spec.recomputes = settings(
      "sweep.recompute", "recompute",
      [](const std::string& n) -> std::optional<std::uint8_t> {
        if (n != "true" && n != "false") return std::nullopt;
        return static_cast<std::uint8_t>(n == "true");
      },
      "expected true or false");
  const auto axis_names = [&](const char* key, const char* name) {
    const auto names = sweep::parse_names(text_of(key), at(key), name);
    refuse_repeats(names, at(key), name, text_of(key));
    const auto grid = sweep::make_grid(f.spec);
    for (const auto& n : names) {
      bool found = false;
      for (const auto& a : grid.axes()) found = found || a.name == n;
      if (!found && !sweep::optional_axis(n))
        fail_input(at(key), name, n, "not an axis of this sweep");
    }
    return names;
  };
  if (vm.count("output.reduce")) {
    f.reduce = axis_names("output.reduce", "reduce");
    if (storage != "summary")
      fail_input(at("output.reduce"), "reduce", text_of("output.reduce"),
                 "maps are reduced only with storage = summary");
    if (sweep::Reduction(sweep::make_grid(f.spec), f.reduce).kept().empty())
      fail_input(at("output.reduce"), "reduce", text_of("output.reduce"),
                 "every axis is reduced: keep at least one (the overall best is the summary "
                 "line's and the Pareto group's)");
  }
  if (vm.count("pareto.group")) f.pareto.group = axis_names("pareto.group", "group");
  if (vm.count("pareto.objectives")) {
    const auto names =
        sweep::parse_names(text_of("pareto.objectives"), at("pareto.objectives"), "objectives");
    if (names.size() != 2 && names.size() != 3)
      fail_input(at("pareto.objectives"), "objectives", text_of("pareto.objectives"),
                 "expected two or three objectives");
    f.pareto.objectives.clear();
    for (const auto& name : names) {
      const auto o = sweep::objective_from_name(name);
      if (!o)
        fail_input(at("pareto.objectives"), "objectives", name,
                   "expected epoch_time, iteration_time, gpus, gpu_hours or memory");
      if (std::find(f.pareto.objectives.begin(), f.pareto.objectives.end(), *o) !=
          f.pareto.objectives.end())
        fail_input(at("pareto.objectives"), "objectives", name, "named twice");
      f.pareto.objectives.push_back(*o);
    }
  }
  if (vm.count("memlimit.batch")) {
    const auto t = text_of("memlimit.batch");
    if (trim(t) == "none") {
      f.memlimit.batch = false;
    } else {
      const auto r = parse_range(t, at("memlimit.batch"), "batch");
      if (r.step != 1) fail_input(at("memlimit.batch"), "batch", t, "no step: LO..HI");
      f.memlimit.batch_lo = r.lo;
      f.memlimit.batch_hi = r.hi;
    }
  }
  if (vm.count("memlimit.resolution")) {
    const auto r =
        parse_range(text_of("memlimit.resolution"), at("memlimit.resolution"), "resolution");
    f.memlimit.resolution = true;
    f.memlimit.resolution_lo = r.lo;
    f.memlimit.resolution_hi = r.hi;
    f.memlimit.resolution_step = r.step;
  }
  if (vm.count("memlimit.sides")) f.memlimit.sides = positive_ints("memlimit.sides", "sides");
  if (vm.count("memlimit.max_searches")) {
    const auto t = text_of("memlimit.max_searches");
    f.max_searches = parse_double(t, at("memlimit.max_searches"), "max_searches");
    if (!(f.max_searches >= 0) || f.max_searches != std::floor(f.max_searches))
      fail_input(at("memlimit.max_searches"), "max_searches", t, "must be a whole number >= 0");
  }
  // a ParaDL .net model's shapes are fixed: every resolution would be an invalid point, and
  // a side search would step through every side of its range
  if (!f.spec.resolution.empty() || f.memlimit.resolution || !f.memlimit.sides.empty()) {
    for (const auto& m : f.spec.models) {
      if (!model::ModelSource::load(m).reshapeable())
        fail_input(at("sweep.model"), "model", m,
                   "a ParaDL .net file has a fixed input shape: not with a resolution axis or "
                   "[memlimit] resolution / sides");
    }
  }
  for (auto v : f.spec.gpus) {
    if (v < 1) fail_input(at("sweep.gpus"), "gpus", gpus, "every GPU count must be >= 1");
  }
  for (auto v : f.spec.batch) {
    if (v < 1) fail_input(at("sweep.batch"), "batch", batch, "every batch must be >= 1");
  }
  const auto v = strategy::variant_from_name(variant);
  if (!v) fail_input(at("sweep.variant"), "variant", variant, "expected paradl or paradise");
  f.spec.variant = *v;
  if (spatial_split != "w" && spatial_split != "all")
    fail_input(at("sweep.spatial_split"), "spatial_split", spatial_split, "expected w or all");
  f.spec.spatial_all_dims = spatial_split == "all";
  read_training_keys(f, vm, at);
  for (const auto& [key, file] : layer_times) {
    const Origin o{path, line_of(f.text, key)};
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
    try {  // the file's own errors (missing, malformed rows) at the sweep file's line too
      const auto rows = strategy::read_layer_times(file);
      if (!rows.empty()) measured = rows.front().precision;  // one per file
    } catch (const InputError& e) {
      fail_input(o, key, file, e.what());
    }
    // times measured at one precision time only that one: every value of the precision
    // axis (fp32 without one) must be it
    const auto at_measured = strategy::precision_from_name(measured);
    const std::vector<strategy::Precision> used =
        f.spec.precisions.empty() ? std::vector{strategy::Precision::Fp32} : f.spec.precisions;
    for (const auto p : used) {
      if (measured.empty() || *at_measured == p) continue;
      fail_input(o, key, file,
                 "measured in " + measured + ", not " + std::string(strategy::precision_name(p)) +
                     (f.spec.precisions.empty()
                          ? " (a sweep without precision models fp32: profile in fp32, "
                            "or set precision = " +
                                std::string(strategy::precision_name(*at_measured)) + " in [sweep])"
                          : " (line " + std::to_string(line_of(f.text, "sweep.precision")) +
                                ": precision must be the measured one alone)"));
    }
    if (!f.spec.resolution.empty())
      fail_input(o, key, file,
                 "per-layer times are measured at the dataset's own resolution: not with a "
                 "resolution axis");
    f.spec.layer_times[name] = file;
  }
  if (const auto s = engine::storage_from_name(storage)) {
    f.storage = *s;
  } else {
    fail_input(at("output.storage"), "storage", storage, "expected full, maps or summary");
  }
  if (vm.count("output.max_bytes")) {
    const auto text_value = vm["output.max_bytes"].as<std::string>();
    f.max_output_bytes = parse_double(text_value, at("output.max_bytes"), "max_bytes");
    if (f.max_output_bytes <= 0)
      fail_input(at("output.max_bytes"), "max_bytes", text_value, "must be > 0");
  }
  if (vm.count("sweep.max_workload_bytes")) {
    const auto text_value = vm["sweep.max_workload_bytes"].as<std::string>();
    f.spec.max_workload_bytes =
        parse_double(text_value, at("sweep.max_workload_bytes"), "max_workload_bytes");
    if (f.spec.max_workload_bytes <= 0)
      fail_input(at("sweep.max_workload_bytes"), "max_workload_bytes", text_value, "must be > 0");
  }
  return f;
}

}  // namespace paradise::app
