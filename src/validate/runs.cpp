// The measured-runs CSV: required and optional columns, checked values, names resolved
// once per distinct value so that a bad one is reported with its file, line and column.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/system/catalog.hpp"
#include "paradise/validate/validate.hpp"

namespace paradise::validate {
namespace {

const std::vector<std::string> kRequired = {"model", "dataset", "system",   "strategy",
                                            "gpus",  "batch",   "precision"};
const std::vector<std::string> kNumeric = {"gpus",
                                           "batch",
                                           "p2",
                                           "measured_iteration_s",
                                           "measured_epoch_s",
                                           "measured_compute_s",
                                           "measured_communication_s",
                                           "measured_memory_bytes",
                                           "time_per_sample"};
// Keys the output rows add: an input column of that name would be ambiguous.
const std::vector<std::string> kReserved = {"line",
                                            "status",
                                            "reason",
                                            "basis",
                                            "projected_s",
                                            "measured_s",
                                            "accuracy",
                                            "relative_error",
                                            "anomaly",
                                            "projected_compute_s",
                                            "projected_communication_s",
                                            "projected_overlapped_s",
                                            "projected_input_wait_s",
                                            "projected_step_overhead_s",
                                            "projected_exposed_communication_s",
                                            "projected_memory_bytes",
                                            "projected_epoch_s",
                                            "measured_epoch_s_used"};

/// Checks a name once per distinct value with `load`; rethrows its error with the origin.
template <typename Load>
void check_name(std::set<std::string>& seen, const std::string& value, const Origin& o,
                const std::string& column, Load load) {
  if (!seen.insert(value).second) return;
  try {
    load(value);
  } catch (const InputError& e) {
    fail_input(o, "column " + column, value, e.what());
  }
}

// A row's measurements must agree: a part no longer than the whole it is part of (per
// iteration when measured_iteration_s is given, else per epoch), and an epoch from half to
// 10x the iteration times the iterations: epochs also hold evaluation, I/O and start-up
// (a small dataset's few iterations), while units (ms as s) or a per-GPU batch are off by
// 8x and more the other way, or 1000x.
std::string text_of(double v, int digits = 6) {
  std::ostringstream t;
  t.precision(digits);
  t << v;
  return t.str();
}

void check_consistent(const MeasuredRun& r, const Origin& o) {
  const bool per_iteration = r.iteration_s.has_value();
  const double whole = per_iteration ? *r.iteration_s : *r.epoch_s;
  const char* whole_name = per_iteration ? "measured_iteration_s" : "measured_epoch_s";
  const auto part = [&](const std::optional<double>& v, const char* name) {
    if (v && *v > whole * (1 + 1e-9))
      fail_input(o, std::string("column ") + name, text_of(*v),
                 std::string("more than ") + whole_name + " " + text_of(whole) +
                     ": a part cannot take longer than the whole");
  };
  part(r.compute_s, "measured_compute_s");
  part(r.communication_s, "measured_communication_s");
  if (!r.iteration_s || !r.epoch_s || r.batch < 1) return;
  // an invalid dataset name was refused above
  const std::int64_t samples = model::find_dataset(r.dataset).samples;
  // NOLINTNEXTLINE(bugprone-integer-division): whole iterations, ceil(samples / batch)
  const double iterations = static_cast<double>((samples + r.batch - 1) / r.batch);
  const double ratio = *r.epoch_s / (*r.iteration_s * iterations);
  if (ratio < 0.5 || ratio > 10)
    fail_input(o, "column measured_epoch_s", text_of(*r.epoch_s),
               text_of(ratio, 3) + "x measured_iteration_s x " + text_of(iterations, 12) +
                   " iterations: the two disagree (give one, or check the units)");
}

}  // namespace

bool is_numeric_column(const std::string& name) {
  return std::find(kNumeric.begin(), kNumeric.end(), name) != kNumeric.end();
}

std::vector<MeasuredRun> read_runs(std::istream& in, const std::string& file,
                                   const std::string& system_override) {
  const CsvTable t = read_csv(in, file);
  for (const auto& name : kRequired) {
    if (name == "system" && !system_override.empty()) continue;
    if (!t.column(name))
      fail_input({file, t.header_line}, "column", name, "required column missing from the header");
  }
  if (!t.column("measured_iteration_s") && !t.column("measured_epoch_s"))
    fail_input({file, t.header_line}, "column", "measured_iteration_s",
               "the header needs measured_iteration_s or measured_epoch_s (or both)");
  for (const auto& name : t.header) {
    if (std::find(kReserved.begin(), kReserved.end(), name) != kReserved.end())
      fail_input({file, t.header_line}, "column", name,
                 "this name is an output key of validate; rename the column");
  }
  if (!system_override.empty()) {
    try {
      system::find_system(system_override);
    } catch (const InputError& e) {
      throw InputError(std::string("--system: ") + e.what());
    }
  }
  std::set<std::string> models, datasets, systems, implementations;
  std::vector<MeasuredRun> runs;
  for (const auto& row : t.rows) {
    MeasuredRun r;
    r.file = file;
    r.line = row.line;
    const Origin o{file, row.line};
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      // --system replaces the rows' system, echoed as used
      const bool replaced = t.header[i] == "system" && !system_override.empty();
      r.columns.emplace_back(t.header[i], replaced ? system_override : row.cells[i]);
    }
    if (!system_override.empty() && !t.column("system"))
      r.columns.emplace_back("system", system_override);
    const auto cell = [&](const std::string& name) -> std::string {
      const auto c = t.column(name);
      return c ? row.cells[*c] : std::string();
    };
    const auto text = [&](const std::string& name) {
      std::string v = cell(name);
      if (v.empty()) fail_input(o, "column " + name, v, "empty; a value is required");
      return v;
    };
    // a nonzero value in [least, most] when given: a vanishing measured time gave an
    // accuracy of -inf, a huge one 1e300-second projections
    const auto number = [&](const std::string& name, bool allow_zero, double least = 0,
                            double most = 1e300) -> std::optional<double> {
      const std::string v = cell(name);
      if (v.empty()) return std::nullopt;
      const double x = parse_double(v, o, "column " + name);
      if (allow_zero ? x < 0 : x <= 0)
        fail_input(o, "column " + name, v, allow_zero ? "must be >= 0" : "must be > 0");
      if (x != 0 && (x < least || x > most)) {
        std::ostringstream range;
        range << "must be " << (allow_zero ? "0 or " : "") << "in [" << least << ", " << most
              << "] (implausible)";
        fail_input(o, "column " + name, v, range.str());
      }
      return x;
    };
    const auto whole = [&](const std::string& name, bool required) -> std::int64_t {
      const std::string v = required ? text(name) : cell(name);
      if (v.empty()) return 0;
      const std::int64_t x = parse_int(v, o, "column " + name);
      if (x < 1) fail_input(o, "column " + name, v, "must be >= 1");
      return x;
    };
    r.model = text("model");
    r.dataset = text("dataset");
    r.system = system_override.empty() ? text("system") : system_override;
    r.strategy = text("strategy");
    r.precision = text("precision");
    r.gpus = whole("gpus", true);
    r.batch = whole("batch", true);
    r.p2 = whole("p2", false);
    r.layer_config = cell("layer_config");
    r.layer_times = cell("layer_times");
    r.implementation = cell("implementation");
    const auto k = strategy::kind_from_name(r.strategy);
    if (!k) fail_input(o, "column strategy", r.strategy, "expected " + strategy::kind_list());
    r.kind = *k;
    // as predict's --p2: a column the configuration would not read is refused, not ignored
    if (r.p2 && !strategy::has_groups(r.kind))
      fail_input(o, "column p2", cell("p2"),
                 "GPUs per group of the hybrids (data+filter, data+spatial, data+pipeline); "
                 "strategy '" +
                     r.strategy + "' has no groups (leave the cell empty)");
    const auto prec = strategy::precision_from_name(r.precision);
    if (!prec) fail_input(o, "column precision", r.precision, "expected fp32, tf32 or mixed");
    r.precision_kind = *prec;
    // seconds: from a nanosecond to 30 years
    constexpr double kLeast = 1e-9, kMost = 1e9;
    r.iteration_s = number("measured_iteration_s", false, kLeast, kMost);
    r.epoch_s = number("measured_epoch_s", false, kLeast, kMost);
    if (!r.iteration_s && !r.epoch_s)
      fail_input(o, "column measured_iteration_s", "",
                 "empty, and so is measured_epoch_s: a row needs one of them");
    r.compute_s = number("measured_compute_s", true, kLeast, kMost);
    r.communication_s = number("measured_communication_s", true, kLeast, kMost);
    r.memory_bytes = number("measured_memory_bytes", true);
    r.time_per_sample_s =
        number("time_per_sample", false, 1e-12, model::kMaxMeasuredSecondsPerSample).value_or(0);
    check_name(models, r.model, o, "model",
               [](const std::string& v) { model::ModelSource::load(v); });
    check_name(datasets, r.dataset, o, "dataset",
               [](const std::string& v) { model::find_dataset(v); });
    if (system_override.empty())
      check_name(systems, r.system, o, "system",
                 [](const std::string& v) { system::find_system(v); });
    if (!r.implementation.empty())
      check_name(implementations, r.implementation, o, "implementation",
                 [](const std::string& v) { implementation::find_implementation(v); });
    check_consistent(r, o);
    runs.push_back(std::move(r));
  }
  if (runs.empty()) fail_input({file, t.header_line}, "", "", "no measured runs after the header");
  return runs;
}

}  // namespace paradise::validate
