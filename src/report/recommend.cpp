#include "paradise/report/recommend.hpp"

#include <algorithm>
#include <cmath>

#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/report/fields.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::report {

using recommend::Change;
using recommend::Eval;
using recommend::Objective;

namespace {

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

void write_ranked_json(JsonWriter& j, const strategy::Workload& w,
                       const recommend::Recommendation& r) {
  const double usable = w.system.usable_memory_bytes();
  j.key("ranked").begin_array();
  for (std::size_t i = 0; i < r.ranked.size(); ++i) {
    const Eval& e = r.at(i);
    j.begin_object();
    j.key("rank").value(static_cast<std::int64_t>(i + 1));
    j.key("strategy").value(strategy::kind_name(e.kind));
    j.key("changes_training_algorithm").value(strategy::changes_training_algorithm(e.kind));
    j.key("gpus").value(e.gpus);
    j.key("batch").value(e.batch);
    j.key("epoch_time_s").value(e.epoch_s);
    j.key("compute_s").value(e.compute_s);
    j.key("communication_s").value(e.communication_s);
    j.key("framework_s").value(e.step_overhead_s);
    j.key("input_wait_s").value(e.input_s);
    j.key("memory_per_gpu_bytes").value(e.memory_bytes);
    j.key("memory_headroom_bytes").value(usable - e.memory_bytes);
    j.key("gpu_hours").value(e.gpu_hours());
    const double epochs = e.epochs_to_target > 0 ? e.epochs_to_target : std::nan("");
    j.key("epochs_to_target").value(epochs);
    j.key("time_to_train_s").value(e.epoch_s * epochs);
    j.key("gpu_hours_to_train").value(e.gpu_hours() * epochs);
    j.key("limiting_factor").value(strategy::limit_name(e.limit));
    j.key("status").value(strategy::status_name(e.status));
    write_split_layer(j, w, e.split_layer, e.split_parts);
    if (e.p2 > 0) j.key("p2_used").value(e.p2);  // the shape used, where the strategy has one
    if (e.segments > 0) j.key("segments_used").value(e.segments);
    j.end_object();
  }
  j.end_array();
}

// A configuration's shape in the table: "p2 8", "S 16", "p2 2, S 8"; "" without one.
std::string shape_cell(const Eval& e) {
  std::string out;
  if (e.p2 > 0) out = "p2 " + std::to_string(e.p2);
  if (e.segments > 0) out += (out.empty() ? "S " : ", S ") + std::to_string(e.segments);
  return out;
}

// How the shapes were chosen: "p2 and micro-batches S searched per configuration (auto)".
std::string shapes_text(const strategy::Config& c) {
  const auto text = [](std::int64_t v, const char* fallback) {
    return v == strategy::kSearched ? std::string("auto (the best per configuration)")
           : v == 0                 ? std::string(fallback)
                                    : std::to_string(v);
  };
  return "p2 " + text(c.p2, "GPUs per node") + "; micro-batches S " +
         text(c.segments, "as many as stages");
}

void write_changes_json(JsonWriter& j, const std::vector<Change>& changes) {
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
}

std::string_view objective_text(Objective o) {
  switch (o) {
    case Objective::Time:
      return " (epoch time, shortest first)";
    case Objective::GpuHours:
      return " (epoch time x GPUs, fewest first)";
    case Objective::MemoryHeadroom:
      return " (free device memory, most first)";
    case Objective::TimeToTrain:
      return " (epochs to target x epoch time, shortest first)";
    case Objective::GpuHoursToTrain:
      return " (epochs to target x epoch time x GPUs, fewest first)";
  }
  return "";
}

// Where the epochs to target come from, or that there are none (no time to train).
std::string epochs_text(const std::optional<model::Convergence>& e) {
  if (!e)
    return "not known for this model and dataset: no time to train (--epochs-to-target "
           "E_MIN[:NOISE_BATCH])";
  std::string s =
      fixed(e->epochs_min, 2) + " x (1 + batch / " +
      (e->noise_batch > 0 ? with_commas(static_cast<std::int64_t>(std::llround(e->noise_batch)))
                          : std::string("inf")) +
      ") to target; " + printable(e->source, false);
  return s;
}

void print_header(std::ostream& out, const strategy::Workload& w, const strategy::Config& c,
                  const recommend::Search& s, const recommend::Recommendation& r) {
  out << "ParaDiSE recommendation (" << strategy::variant_name(c.variant) << " model)\n"
      << "  model      " << printable(w.model.name, false) << " at " << w.model.input.str() << ", "
      << with_commas(w.dataset_samples) << " samples per epoch\n"
      << "  system     " << printable(w.system.name, false) << " ("
      << printable(w.system.gpu.name, false) << ", " << human_bytes(w.system.usable_memory_bytes())
      << " usable per GPU)\n"
      << "  searched   " << s.kinds.size() << " strategies x GPUs " << join(s.counts) << " x batch "
      << join(s.batches) << ": " << r.evals.size() << " configurations, " << r.feasible
      << " feasible\n"
      << "  objective  " << recommend::objective_name(s.objective) << objective_text(s.objective)
      << "\n  shapes     " << shapes_text(c) << "\n  training   " << strategy::training_summary(c)
      << "\n  compute    " << strategy::compute_source(w, c) << "\n  epochs     "
      << epochs_text(s.epochs) << "\n\n";
}

void print_ranked(std::ostream& out, const strategy::Workload& w, const recommend::Search& s,
                  const recommend::Recommendation& r) {
  const bool headroom = s.objective == Objective::MemoryHeadroom;
  TextTable t;
  t.add_column("rank");
  t.add_column("strategy", TextTable::Align::Left);
  for (const char* name :
       {"GPUs", "batch", "epoch s", "compute s", "comm s", "framework s", "memory/GPU"})
    t.add_column(name);
  if (headroom) t.add_column("headroom");
  t.add_column("GPU-h/epoch");
  const bool to_train = s.epochs.has_value();
  if (to_train) {
    t.add_column("epochs");
    t.add_column("train h");
    t.add_column("GPU-h to train");
  }
  // the wait for input, when a ranked configuration waits (a node's pipeline or a loading rank)
  bool waits = false;
  for (std::size_t i = 0; i < r.ranked.size(); ++i) waits = waits || r.at(i).input_s > 0;
  if (waits) t.add_column("input wait s");
  // the hybrids' and pipelines' shapes used, when a ranked configuration has one
  bool shaped = false;
  for (std::size_t i = 0; i < r.ranked.size(); ++i) shaped = shaped || !shape_cell(r.at(i)).empty();
  if (shaped) t.add_column("shape", TextTable::Align::Left);
  t.add_column("limited by", TextTable::Align::Left);
  bool flagged = false;
  for (std::size_t i = 0; i < r.ranked.size(); ++i) {
    const Eval& e = r.at(i);
    // a strategy that trains another algorithm is marked, and said below the table
    const bool other = strategy::changes_training_algorithm(e.kind);
    flagged = flagged || other;
    std::vector<std::string> row{
        std::to_string(i + 1),       std::string(strategy::kind_name(e.kind)) + (other ? " *" : ""),
        std::to_string(e.gpus),      std::to_string(e.batch),
        fixed(e.epoch_s, 2),         fixed(e.compute_s, 2),
        fixed(e.communication_s, 2), fixed(e.step_overhead_s, 2),
        human_bytes(e.memory_bytes)};
    if (headroom) row.push_back(human_bytes(w.system.usable_memory_bytes() - e.memory_bytes));
    row.push_back(fixed(e.gpu_hours(), 3));
    if (to_train) {
      row.push_back(fixed(e.epochs_to_target, 2));
      row.push_back(fixed(e.time_to_train_s() / 3600, 3));
      row.push_back(fixed(e.gpu_hours() * e.epochs_to_target, 2));
    }
    if (waits) row.push_back(fixed(e.input_s, 2));
    if (shaped) row.push_back(shape_cell(e));
    row.emplace_back(strategy::limit_name(e.limit));
    t.add_row(std::move(row));
  }
  t.print(out);
  if (flagged)
    out << "* changes the training algorithm: DASO averages the replicas globally only every few "
           "batches (Coquelin et al. 2021), so an epoch may not train as far as data "
           "parallelism's; compare it on time to accuracy, not on epoch time alone\n";
}

void print_losers(std::ostream& out, const recommend::Recommendation& r) {
  if (r.ranked.empty()) {
    out << "why each strategy fails:\n";
  } else {
    out << "\nwhy not the others (not in the top " << r.ranked.size() << "):\n";
  }
  std::size_t width = 0;
  for (const auto& l : r.losers) width = std::max(width, strategy::kind_name(l.kind).size());
  for (const auto& l : r.losers) {
    const auto name = strategy::kind_name(l.kind);
    out << "  " << name << std::string(width - name.size(), ' ') << "  " << l.reason << '\n';
  }
}

void print_changes(std::ostream& out, const std::vector<Change>& changes) {
  const bool batch_entry = changes.back().options.starts_with("--batch");
  const std::size_t settings = changes.size() - (batch_entry ? 1 : 0);
  std::string parts;  // what the lines are
  if (settings > 0) parts = "each change alone, the rest as given";
  if (settings > 2) parts += "; then the changes together";
  if (batch_entry) parts += std::string(parts.empty() ? "" : "; ") + "the largest smaller batch";
  out << "\nwhat would fit (" << parts << "):\n";
  std::size_t width = 0;
  for (const auto& ch : changes) width = std::max(width, ch.options.size());
  for (const auto& ch : changes) {
    out << "  " << ch.options << std::string(width - ch.options.size(), ' ') << "  ";
    if (!ch.best) {
      out << "nothing fits\n";
      continue;
    }
    const Eval& b = *ch.best;
    out << ch.feasible << " feasible; best " << strategy::kind_name(b.kind) << " on "
        << recommend::config_text(b) << ": " << fixed(b.epoch_s, 1) << " s per epoch, "
        << human_bytes(b.memory_bytes) << " per GPU\n";
  }
}

}  // namespace

void print_recommendation_table(std::ostream& out, const strategy::Workload& w,
                                const strategy::Config& c, const recommend::Search& s,
                                const recommend::Recommendation& r) {
  print_header(out, w, c, s, r);
  if (r.ranked.empty()) {
    out << "no feasible configuration\n\n";
  } else {
    print_ranked(out, w, s, r);
  }
  if (!r.losers.empty()) print_losers(out, r);
  if (!r.changes.empty()) print_changes(out, r.changes);
}

void print_recommendation_json(std::ostream& out, const strategy::Workload& w,
                               const strategy::Config& c, const recommend::Search& s,
                               const recommend::Recommendation& r, const std::string& dataset) {
  JsonWriter j(out);
  j.begin_object();
  j.key("model").value(w.model.name);
  j.key("dataset").value(dataset);
  j.key("input").value(w.model.input.str());  // a sample, C x spatial (--resolution)
  j.key("system").value(w.system.name);
  j.key("variant").value(strategy::variant_name(c.variant));
  write_training_json(j, c);
  j.key("objective").value(recommend::objective_name(s.objective));
  write_convergence(j, s.epochs);
  j.key("evaluated").value(static_cast<std::int64_t>(r.evals.size()));
  j.key("feasible").value(static_cast<std::int64_t>(r.feasible));
  write_ranked_json(j, w, r);
  j.key("why_not").begin_object();
  for (const auto& l : r.losers) j.key(strategy::kind_name(l.kind)).value(l.reason);
  j.end_object();
  write_changes_json(j, r.changes);
  j.end_object();
  out << '\n';
}

}  // namespace paradise::report
