#include "paradise/report/validate.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"

namespace paradise::report {
namespace {

// "key": the number, or null when there is none
void number_or_null(JsonWriter& j, std::string_view key, const std::optional<double>& v) {
  j.key(key);
  if (v) {
    j.value(*v);
  } else {
    j.null();
  }
}

void write_row_json(JsonWriter& j, const validate::RowResult& r) {
  j.begin_object();
  for (const auto& [name, value] : r.run->columns) {
    j.key(name);
    if (value.empty()) {
      j.null();
    } else if (validate::is_numeric_column(name)) {
      j.value(parse_double(value, {r.run->file, r.run->line}, name));
    } else {
      j.value(value);
    }
  }
  // the profile used, where the row did not name one (paradise variant)
  const auto& cols = r.run->columns;
  const bool named = std::any_of(cols.begin(), cols.end(),
                                 [](const auto& c) { return c.first == "implementation"; });
  if (!named && !r.implementation.empty()) j.key("implementation").value(r.implementation);
  j.key("line").value(r.run->line);
  j.key("status").value(r.status);
  j.key("reason").value(r.reason);
  j.key("basis").value(r.basis);
  number_or_null(j, "projected_s", r.projected_s);
  number_or_null(j, "measured_s", r.measured_s);
  number_or_null(j, "accuracy", r.accuracy);
  number_or_null(j, "relative_error", r.relative_error);
  number_or_null(j, "projected_compute_s", r.projected_compute_s);
  number_or_null(j, "projected_communication_s", r.projected_communication_s);
  number_or_null(j, "projected_overlapped_s", r.projected_overlapped_s);
  number_or_null(j, "projected_input_wait_s", r.projected_input_wait_s);
  number_or_null(j, "projected_step_overhead_s", r.projected_step_overhead_s);
  // what the projection pays: projected_s = compute + exposed + step overhead + input wait
  std::optional<double> exposed;
  if (r.projected_communication_s && r.projected_overlapped_s)
    exposed = *r.projected_communication_s - *r.projected_overlapped_s;
  number_or_null(j, "projected_exposed_communication_s", exposed);
  number_or_null(j, "projected_memory_bytes", r.projected_memory_bytes);
  number_or_null(j, "projected_epoch_s", r.projected_epoch_s);
  j.key("anomaly");
  if (r.anomaly) {
    j.begin_object();
    j.key("part").value(r.anomaly->part);
    j.key("cause").value(r.anomaly->cause);
    j.key("hint").value(r.anomaly->hint);
    j.end_object();
  } else {
    j.null();
  }
  j.end_object();
}

void write_summary_json(JsonWriter& j, const validate::Summary& s) {
  j.key("summary").begin_object();
  j.key("rows").value(s.rows);
  j.key("compared").value(s.compared);
  j.key("anomalies").value(s.anomalies);
  number_or_null(j, "mean_accuracy", s.mean_accuracy);
  j.key("per_strategy").begin_object();
  for (const auto& [name, mean] : s.per_strategy) j.key(name).value(mean);
  j.end_object();
  const auto& ra = s.rank_agreement;
  j.key("rank_agreement").begin_object();
  j.key("method").value(
      "Kendall tau-a of measured vs projected epoch times over pairs of rows with different "
      "strategies and the same model, dataset, system and GPU count, pooled over the groups; "
      "fraction_concordant = concordant / (concordant + discordant)");
  j.key("pairs").value(ra.pairs);
  j.key("concordant").value(ra.concordant);
  j.key("discordant").value(ra.discordant);
  j.key("tied").value(ra.tied);
  number_or_null(j, "kendall_tau", ra.kendall_tau);
  number_or_null(j, "fraction_concordant", ra.fraction_concordant);
  j.key("groups").begin_array();
  for (const auto& g : ra.groups) {
    j.begin_object();
    j.key("model").value(g.model);
    j.key("dataset").value(g.dataset);
    j.key("system").value(g.system);
    j.key("gpus").value(g.gpus);
    j.key("measured_order").begin_array();
    for (const auto& k : g.strategies) j.value(k);
    j.end_array();
    j.key("pairs").value(g.pairs);
    j.key("concordant").value(g.concordant);
    j.key("discordant").value(g.discordant);
    j.key("tied").value(g.tied);
    number_or_null(j, "kendall_tau", g.kendall_tau);
    j.end_object();
  }
  j.end_array();
  j.end_object();
  j.end_object();
}

const std::vector<std::string> kShown = {"model", "dataset", "system",   "strategy",
                                         "gpus",  "batch",   "precision"};

// a measured 1e-300 s gives an accuracy of -1e300: in exponent form, not 300 digits
std::string opt_fixed(const std::optional<double>& v, int decimals, double scale = 1) {
  return v ? fixed_or_exponent(*v * scale, decimals) : "-";
}

/// The mean accuracy, per strategy, the rank agreement, the rows not compared and the
/// anomalies with their cause.
void print_summary(std::ostream& out, const std::vector<validate::RowResult>& rows,
                   const validate::Summary& s) {
  out << "\nmean accuracy (1 - |projected - measured| / measured): "
      << opt_fixed(s.mean_accuracy, 3) << " over " << s.compared << " runs\n";
  for (const auto& [name, mean] : s.per_strategy)
    out << "  " << name << ": " << fixed_or_exponent(mean, 3) << '\n';
  const auto& ra = s.rank_agreement;
  out << "rank agreement (Kendall tau-a of epoch times, strategies of the same model, "
         "dataset, system and GPU count): ";
  if (ra.pairs == 0) {
    out << "no pairs (no group has two strategies)\n";
  } else {
    out << "tau " << fixed(*ra.kendall_tau, 3) << ", " << ra.concordant << " of " << ra.pairs
        << " pairs concordant, " << ra.discordant << " discordant, " << ra.tied << " tied\n";
  }
  for (const auto& r : rows) {
    if (r.status == "error" || r.status == "invalid")
      out << "line " << r.run->line << ": not compared (" << r.status << "): " << r.reason << '\n';
  }
  if (s.anomalies > 0) out << "\nanomalies:\n";
  for (const auto& r : rows) {
    if (!r.anomaly) continue;
    out << "  line " << r.run->line << " (" << r.run->model << ", " << r.run->strategy << ", "
        << r.run->gpus << " GPUs, batch " << r.run->batch << "): error "
        << fixed_or_exponent(100 * *r.relative_error, 1) << "%; " << r.anomaly->cause
        << "\n    check: " << r.anomaly->hint << '\n';
  }
}

}  // namespace

void print_validation_json(std::ostream& out, const std::vector<validate::RowResult>& rows,
                           const validate::Summary& s, const validate::Options& o) {
  JsonWriter j(out);
  j.begin_object();
  j.key("variant").value(strategy::variant_name(o.variant));
  j.key("threshold").value(o.threshold);
  j.key("rows").begin_array();
  for (const auto& r : rows) write_row_json(j, r);
  j.end_array();
  write_summary_json(j, s);
  j.end_object();
  out << '\n';
}

void print_validation_table(std::ostream& out, const std::vector<validate::RowResult>& rows,
                            const validate::Summary& s, const validate::Options& o,
                            const std::string& file) {
  out << "ParaDiSE validation (" << strategy::variant_name(o.variant) << " model) of " << file
      << ": " << s.rows << " runs, " << s.compared << " compared, " << s.anomalies
      << (s.anomalies == 1 ? " anomaly" : " anomalies") << " (beyond "
      << fixed(100 * o.threshold, 0) << "%, or measured but out of memory)\n\n";
  TextTable t;
  t.add_column("line");
  for (const auto& name : kShown)
    t.add_column(
        name, name == "gpus" || name == "batch" ? TextTable::Align::Right : TextTable::Align::Left);
  const bool paradise = o.variant == strategy::Variant::Paradise;
  if (paradise) t.add_column("implementation", TextTable::Align::Left);
  t.add_column("basis", TextTable::Align::Left);
  t.add_column("measured s");
  t.add_column("projected s");
  t.add_column("accuracy");
  t.add_column("status", TextTable::Align::Left);
  // unknown columns, echoed
  std::vector<std::string> extra;
  for (const auto& [name, v] : rows.front().run->columns) {
    if (std::find(kShown.begin(), kShown.end(), name) == kShown.end() &&
        !name.starts_with("measured_") && name != "time_per_sample" && name != "p2" &&
        name != "layer_config" && name != "layer_times" && name != "implementation")
      extra.push_back(name);
  }
  for (const auto& name : extra) t.add_column(name, TextTable::Align::Left);
  for (const auto& r : rows) {
    const validate::MeasuredRun& m = *r.run;
    std::vector<std::string> cells{std::to_string(m.line),
                                   m.model,
                                   m.dataset,
                                   m.system,  // --system, if given
                                   m.strategy,
                                   std::to_string(m.gpus),
                                   std::to_string(m.batch),
                                   m.precision};
    if (paradise) cells.push_back(r.implementation.empty() ? "-" : r.implementation);
    cells.push_back(r.basis);
    cells.push_back(opt_fixed(r.measured_s, 4));
    cells.push_back(opt_fixed(r.projected_s, 4));
    cells.push_back(opt_fixed(r.accuracy, 3));
    cells.push_back(r.anomaly ? "ANOMALY" : r.status);
    for (const auto& name : extra) {
      for (const auto& [n, v] : r.run->columns) {
        if (n == name) cells.push_back(v);
      }
    }
    t.add_row(std::move(cells));
  }
  t.print(out);
  print_summary(out, rows, s);
}

}  // namespace paradise::report
