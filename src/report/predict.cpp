#include "paradise/report/predict.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "paradise/core/csv.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/report/fields.hpp"
#include "paradise/strategy/input_pipeline.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/strategy/roofline.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::report {
namespace {

// A byte count with thousands separators; past 64-bit integers (a model at the size limits
// on a huge batch) in exponent form (it printed -0)
std::string byte_count(double bytes) {
  if (std::fabs(bytes) < 9e18) return with_commas(static_cast<std::int64_t>(bytes));
  std::ostringstream o;
  o << std::setprecision(4) << bytes;
  return o.str();
}

// The whole-model recomputation plan as predict shows it: asked for where it applies (the
// paradise variant, not a pipeline, whose stages are the segments), whether it runs
// (strategy::recomputes: it lowers the step's peak, or is forced), and the layers that begin
// a recomputed segment when it runs (strategy::recompute_cuts).
struct RecomputePlan {
  bool applies = false, runs = false;
  std::vector<std::string> checkpoints;
};
RecomputePlan recompute_plan(const strategy::Workload& w, const strategy::Config& c) {
  RecomputePlan r;
  r.applies = c.variant == strategy::Variant::Paradise && c.recompute_activations &&
              c.kind != strategy::Kind::Pipeline && c.kind != strategy::Kind::DataPipeline;
  r.runs = r.applies && strategy::recomputes(c, strategy::sum_layers(w));
  if (!r.runs) return r;
  for (const auto i : strategy::recompute_cuts(w.model, strategy::element_bytes(c.precision)))
    r.checkpoints.push_back(w.model.layers[i].name);
  return r;
}

// The group size and micro-batches used, and where they come from: "2 GPUs per group
// (--p2 auto's choice), 16 micro-batches (the default: as many as stages)"; "" for a
// strategy without them.
std::string shape_text(const strategy::Prediction& p, const strategy::Config& c) {
  const auto source = [](const char* option, std::int64_t given, const char* fallback) {
    if (given == strategy::kSearched) return std::string(" (") + option + " auto's choice)";
    if (given == 0) return std::string(" (the default: ") + fallback + ")";
    return std::string(" (") + option + " " + std::to_string(given) + ")";
  };
  std::string out;
  if (p.p2 > 0) {
    out = group_size_text(c.kind, p.p2) + source("--p2", c.p2, "GPUs per node");
  }
  if (p.segments > 0) {
    if (!out.empty()) out += ", ";
    out += std::to_string(p.segments) + " micro-batches" +
           source("--segments", c.segments, "as many as stages");
  }
  return out;
}

void print_setup(std::ostream& out, const strategy::Prediction& p, const strategy::Config& c,
                 const strategy::Workload& w) {
  out << "ParaDiSE prediction (" << strategy::variant_name(c.variant) << " model)\n"
      << "  model     " << printable(w.model.name, false) << " at " << w.model.input.str() << ", "
      << with_commas(w.model.params()) << " parameters\n"
      << "  dataset   " << with_commas(w.dataset_samples) << " samples per epoch\n"
      << "  system    " << printable(w.system.name, false) << " ("
      << printable(w.system.gpu.name, false) << ")\n"
      << "  strategy  " << strategy::kind_name(c.kind) << " on " << c.gpus << " GPUs, global batch "
      << c.batch << " (" << with_commas(p.iterations_per_epoch) << " iterations per epoch)"
      << (strategy::changes_training_algorithm(c.kind)
              ? "; changes the training algorithm (stale global averages between "
                "synchronisations): an epoch may not train as far as data parallelism's"
              : "")
      << "\n";
  if (const auto shape = shape_text(p, c); !shape.empty()) out << "  shape     " << shape << "\n";
  out << "  training  " << strategy::training_summary(c) << "\n";
  if (c.variant == strategy::Variant::Paradise)
    out << "  software  " << printable(c.implementation_name, false)
        << " (implementation profile: transports, overheads, split-layer efficiency "
        << fixed(c.implementation.split_efficiency, 3)
        << (c.implementation.managed_memory ? ", managed memory" : "") << ")\n";
  out << "  compute   " << strategy::compute_source(w, c) << "\n";
  const auto plan = recompute_plan(w, c);
  if (const auto& cuts = plan.checkpoints; !cuts.empty()) {
    out << "  recompute " << cuts.size() + 1 << " segments, checkpoints before";
    for (std::size_t i = 0; i < cuts.size(); ++i)
      out << (i ? ", " : " ") << printable(cuts[i], false);
    out << " (each segment but the last run again in the backward pass)\n";
  } else if (plan.applies && !plan.runs) {
    out << "  recompute nothing: no segment plan lowers this step's peak, so no forward "
           "pass is run again\n";
  }
  if (p.split_layer >= 0) {
    // a split that stops before the last convolution: the default layer config's fallback
    const bool shorter =
        std::any_of(w.active.begin() + p.split_layer + 1, w.active.end(), [](bool a) { return a; });
    out << "  split     the parallel layers up to '"
        << printable(w.model.layers[static_cast<std::size_t>(p.split_layer)].name, false)
        << "' (layer " << p.split_layer << " of " << w.model.layers.size() - 1 << ") in "
        << split_parts_text(p.split_parts, w.model.input.rank)
        << (static_cast<std::size_t>(p.split_layer) + 1 == w.model.layers.size()
                ? ", every layer split (nothing gathered)"
                : ", the rest replicated after an allgather")
        << (shorter ? "; the later convolutions are too narrow to split as many ways" : "")
        << " (--spatial-split " << strategy::spatial_split_name(p.spatial_split)
        << (c.spatial_split == strategy::SpatialSplit::Auto ? ", auto's choice" : "") << ")\n";
  }
}

/// The status line, and for a configuration out of memory the largest batch that fits;
/// false when it is invalid (no time or memory to show).
bool print_status(std::ostream& out, const strategy::Prediction& p, const strategy::Config& c,
                  const strategy::Workload& w) {
  out << "\n"
      << "status: " << strategy::status_name(p.status);
  if (!p.reason.empty()) out << " (" << p.reason << ")";
  if (p.status == strategy::Status::Invalid) {
    out << "\n";  // it cannot run: no time or memory to show
    return false;
  }
  out << "; limited by " << strategy::limit_name(p.limit) << "\n";
  if (p.status == strategy::Status::OutOfMemory) {
    // what does fit on these GPUs: the largest batch below this one (memlimit's search)
    const auto b = sweep::largest_batch(w, c, 1, c.batch - 1);
    out << "  on " << gpus_text(c.gpus) << " "
        << (b.value > 0 ? "a global batch of up to " + with_commas(b.value) + " fits"
                        : "no smaller global batch fits")
        << " (memlimit for the limits, recommend for other GPU counts and settings)\n";
  }
  return true;
}

/// The time per epoch: compute, each communication part, the overlap; the iteration.
void print_times(std::ostream& out, const strategy::Prediction& p, const strategy::Config& c,
                 const strategy::Workload& w) {
  // the extended model's parts say how their bytes travel; ParaDL's formulas have no
  // implementation
  const bool paradise = c.variant == strategy::Variant::Paradise;
  TextTable t;
  t.add_column("time per epoch", TextTable::Align::Left);
  t.add_column("collective", TextTable::Align::Left);
  if (paradise) {
    t.add_column("transport", TextTable::Align::Left);
    t.add_column("overhead s");
  }
  t.add_column("GPUs");
  t.add_column("seconds");
  t.add_column("share");
  const auto share = [&](double s) {
    return fixed(p.epoch_time_s > 0 ? 100 * (s / p.epoch_time_s) : 0, 1) + "%";
  };
  const auto row = [&](std::string what, std::string collective, std::string transport,
                       std::string overhead, std::string gpus, double s, std::string pct) {
    std::vector<std::string> cells{std::move(what), std::move(collective)};
    if (paradise) {
      cells.push_back(std::move(transport));
      cells.push_back(std::move(overhead));
    }
    cells.push_back(std::move(gpus));
    cells.push_back(fixed(s, 3));
    cells.push_back(std::move(pct));
    t.add_row(std::move(cells));
  };
  row("compute (forward + backward)", "-", "", "", std::to_string(c.gpus), p.epoch_compute_s,
      share(p.epoch_compute_s));
  for (const auto& part : p.communication)
    row(std::string(part.name) + " [" + std::string(part.phase) + "]", std::string(part.collective),
        std::string(part.transport), fixed(part.epoch_overhead_s, 3), std::to_string(part.gpus),
        part.epoch_s, share(part.epoch_s));
  const auto summary_row = [&](const char* what, double s) {
    row(what, "", "", "", "", s, share(s));
  };
  if (p.epoch_overlapped_s > 0)
    summary_row("hidden behind compute (overlap)", -p.epoch_overlapped_s);
  if (p.epoch_step_overhead_s > 0)
    summary_row("framework time per step (host)", p.epoch_step_overhead_s);
  if (p.epoch_input_s > 0) summary_row("waiting for input (beyond prefetch)", p.epoch_input_s);
  if (p.epoch_eval_s > 0) summary_row("evaluation pass (forward only)", p.epoch_eval_s);
  row("total", "", "", "", "", p.epoch_time_s, "100.0%");
  t.print(out);
  if (p.epoch_slowest_gpu_wait_s > 0)
    out << "compute includes " << fixed(p.epoch_slowest_gpu_wait_s, 3)
        << " s waiting for the slowest of " << gpus_text(c.gpus)
        << " (spread between GPUs: " << fixed(w.system.gpu.variability_fraction * 100, 1) << "%)\n";
  if (p.epoch_input_s > 0) {
    // which input stage the GPUs wait for: the node's pipeline or the implementation's
    // loading rank (strategy/input_pipeline.hpp), at the group size the point ran with
    strategy::Config ran = c;
    ran.p2 = p.p2;
    const double node = strategy::input_iteration_s(w, c.gpus, c.batch);
    const double loader = strategy::loader_iteration_s(w, ran);
    out << "input: " << (loader >= node ? "a loading rank's share" : "the node's pipeline")
        << " takes " << fixed(std::max(node, loader) * 1e3, 3) << " ms per iteration (node "
        << fixed(node * 1e3, 3) << " ms";
    if (c.implementation.loader_samples_per_s > 0)
      out << ", loading rank " << fixed(loader * 1e3, 3) << " ms at "
          << fixed(c.implementation.loader_samples_per_s, 0) << " samples/s";
    out << ")\n";
  }
  out << "iteration: " << fixed(p.iteration_time_s * 1e3, 3) << " ms\n\n";
}

/// The epochs to target at the configuration's batch, and where they come from.
void print_epochs(std::ostream& out, const strategy::Config& c, const Epochs& epochs) {
  if (!epochs) {
    out << "  epochs    not known for this model and dataset: no time to train (give "
           "--epochs-to-target E_MIN[:NOISE_BATCH]; docs/time-to-train.md)\n";
    return;
  }
  out << "  epochs    " << fixed(epochs->epochs(c.batch), 2) << " to target at batch " << c.batch;
  if (epochs->noise_batch > 0)
    out << " (" << fixed(epochs->epochs_min, 2) << " x (1 + " << c.batch << " / "
        << with_commas(static_cast<std::int64_t>(std::llround(epochs->noise_batch))) << "))";
  out << "; " << printable(epochs->source, false) << "\n";
}

/// The memory per GPU, part by part.
void print_memory(std::ostream& out, const strategy::Prediction& p) {
  TextTable m;
  m.add_column("memory per GPU", TextTable::Align::Left);
  m.add_column("bytes");
  m.add_column("", TextTable::Align::Left);
  for (const auto& part : p.memory)
    m.add_row({std::string(part.name), byte_count(part.bytes), human_bytes(part.bytes)});
  m.add_row({"total", byte_count(p.memory_per_gpu_bytes), human_bytes(p.memory_per_gpu_bytes)});
  m.print(out);
}

}  // namespace

// The epochs to target, their model and the time to train (null where not known).
void write_time_to_train(JsonWriter& j, const strategy::Prediction& p, const strategy::Config& c,
                         const Epochs& epochs) {
  write_convergence(j, epochs);
  const double e = epochs ? epochs->epochs(c.batch) : std::nan("");
  const bool ok = epochs && p.status == strategy::Status::Ok;
  j.key("epochs_to_target").value(e);
  j.key("time_to_train_s").value(ok ? e * p.epoch_time_s : std::nan(""));
  j.key("gpu_hours_to_train")
      .value(ok ? e * p.epoch_time_s * static_cast<double>(c.gpus) / 3600 : std::nan(""));
}

void print_prediction_json(std::ostream& out, const strategy::Prediction& p,
                           const strategy::Config& c, const strategy::Workload& w,
                           const input::WorkloadSpec& asked, const Epochs& epochs) {
  JsonWriter j(out);
  j.begin_object();
  // what was predicted (issue 39): the model's and system's own names, and the three as given
  j.key("model").value(w.model.name);
  j.key("model_source").value(asked.model);
  j.key("dataset").value(asked.dataset);
  j.key("system").value(w.system.name);
  j.key("system_source").value(asked.system);
  j.key("strategy").value(strategy::kind_name(c.kind));
  j.key("changes_training_algorithm").value(strategy::changes_training_algorithm(c.kind));
  j.key("gpus").value(c.gpus);
  j.key("batch").value(c.batch);
  j.key("input").value(w.model.input.str());  // a sample, C x spatial (--resolution)
  j.key("variant").value(strategy::variant_name(c.variant));
  if (c.variant == strategy::Variant::Paradise)
    j.key("implementation").value(c.implementation_name);
  write_training_json(j, c);
  j.key("status").value(strategy::status_name(p.status));
  j.key("reason").value(p.reason);
  j.key("limiting_factor").value(strategy::limit_name(p.limit));
  j.key("iterations_per_epoch").value(p.iterations_per_epoch);
  j.key("iteration_time_s").value(p.iteration_time_s);
  j.key("iteration_compute_s").value(p.iteration_compute_s);
  j.key("epoch_time_s").value(p.epoch_time_s);
  j.key("epoch_compute_s").value(p.epoch_compute_s);
  j.key("epoch_slowest_gpu_wait_s").value(p.epoch_slowest_gpu_wait_s);
  j.key("epoch_communication_s").value(p.epoch_communication_s);
  j.key("epoch_overlapped_s").value(p.epoch_overlapped_s);
  j.key("epoch_step_overhead_s").value(p.epoch_step_overhead_s);
  j.key("epoch_input_wait_s").value(p.epoch_input_s);
  j.key("epoch_eval_s").value(p.epoch_eval_s);
  j.key("memory_per_gpu_bytes").value(p.memory_per_gpu_bytes);
  write_time_to_train(j, p, c, epochs);
  write_split_layer(j, w, p.split_layer, p.split_parts);
  j.key("spatial_split").value(strategy::spatial_split_name(c.spatial_split));
  j.key("spatial_split_used").value(strategy::spatial_split_name(p.spatial_split));
  // the group size and micro-batches as given ("auto", a count, "default") and used
  const auto given = [](std::int64_t v) { return v == 0 ? "default" : strategy::count_text(v); };
  if (p.p2 > 0) {
    j.key("p2").value(given(c.p2));
    j.key("p2_used").value(p.p2);
  }
  if (p.segments > 0) {
    j.key("segments").value(given(c.segments));
    j.key("segments_used").value(p.segments);
  }
  const auto plan = recompute_plan(w, c);
  if (plan.applies) j.key("recompute_lowers_peak").value(plan.runs);
  if (const auto& cuts = plan.checkpoints; !cuts.empty()) {
    j.key("recompute_checkpoints").begin_array();
    for (const auto& name : cuts) j.value(name);
    j.end_array();
  }
  j.key("communication").begin_object();
  for (const auto& part : p.communication) {
    j.key(part.name).begin_object();
    j.key("collective").value(part.collective);
    j.key("phase").value(part.phase);
    j.key("gpus").value(part.gpus);
    j.key("epoch_s").value(part.epoch_s);
    if (c.variant == strategy::Variant::Paradise) {
      j.key("transport").value(part.transport);
      j.key("overhead_s").value(part.epoch_overhead_s);
    }
    j.end_object();
  }
  j.end_object();
  j.key("memory").begin_object();
  for (const auto& part : p.memory) j.key(part.name).value(part.bytes);
  j.end_object();
  j.end_object();
  out << '\n';
}

// One header line and one row: the scalar results, then one column per part.
void print_prediction_csv(std::ostream& out, const strategy::Prediction& p,
                          const strategy::Config& c, const strategy::Workload& w,
                          const Epochs& epochs) {
  std::string header =
      "strategy,gpus,batch,input,variant,implementation,precision,optimizer,zero_stage,recompute,"
      "status,reason,"
      "limiting_"
      "factor,iterations_per_epoch,iteration_"
      "time_s,epoch_time_s,epoch_compute_s,epoch_communication_s,epoch_overlapped_s,"
      "epoch_step_overhead_s,memory_per_gpu_bytes,epochs_to_target,time_to_train_s,p2,segments";
  std::ostringstream row;
  row.precision(17);
  // an invalid configuration's figures are missing: empty fields
  const auto figure = [](double v) {
    std::ostringstream f;
    f.precision(17);
    if (std::isfinite(v)) f << v;
    return f.str();
  };
  row << strategy::kind_name(c.kind) << ',' << c.gpus << ',' << c.batch << ','
      << w.model.input.str() << ',' << strategy::variant_name(c.variant) << ','
      << (c.variant == strategy::Variant::Paradise ? csv_field(c.implementation_name) : "") << ','
      << strategy::precision_name(c.precision) << ',';
  if (c.variant == strategy::Variant::Paradise)  // ParaDL has none of these policies: empty
    row << strategy::optimizer_name(c.optimizer) << ',' << c.zero_stage << ','
        << (c.recompute_activations ? "true" : "false");
  else
    row << ",,";
  row << ',' << strategy::status_name(p.status) << ',' << csv_field(p.reason) << ','
      << strategy::limit_name(p.limit) << ',' << p.iterations_per_epoch << ','
      << figure(p.iteration_time_s) << ',' << figure(p.epoch_time_s) << ','
      << figure(p.epoch_compute_s) << ',' << figure(p.epoch_communication_s) << ','
      << figure(p.epoch_overlapped_s) << ',' << figure(p.epoch_step_overhead_s) << ','
      << figure(p.memory_per_gpu_bytes);
  // not known, or no feasible epoch: empty fields
  const double e = epochs ? epochs->epochs(c.batch) : std::nan("");
  row << ',' << figure(e) << ','
      << figure(epochs && p.status == strategy::Status::Ok ? e * p.epoch_time_s : std::nan(""));
  // the group size and micro-batches used (empty: the strategy has none)
  const auto count = [](std::int64_t v) { return v > 0 ? std::to_string(v) : std::string(); };
  row << ',' << count(p.p2) << ',' << count(p.segments);
  for (const auto& part : p.communication) {
    header += ',' + csv_field("comm:" + std::string(part.name));
    row << ',' << part.epoch_s;
  }
  for (const auto& part : p.memory) {
    header += ',' + csv_field("mem:" + std::string(part.name));
    row << ',' << part.bytes;
  }
  out << header << '\n' << row.str() << '\n';
}

void print_prediction_table(std::ostream& out, const strategy::Prediction& p,
                            const strategy::Config& c, const strategy::Workload& w,
                            const Epochs& epochs) {
  print_setup(out, p, c, w);
  print_epochs(out, c, epochs);
  if (!print_status(out, p, c, w)) return;
  out << "\n";
  print_times(out, p, c, w);
  if (epochs && p.status == strategy::Status::Ok) {
    const double e = epochs->epochs(c.batch), s = e * p.epoch_time_s;
    out << "time to train: " << fixed(s, 1) << " s (" << fixed(s / 3600, 3) << " h: " << fixed(e, 2)
        << " epochs), " << fixed(s * static_cast<double>(c.gpus) / 3600, 2) << " GPU-hours\n\n";
  }
  print_memory(out, p);
}

}  // namespace paradise::report
