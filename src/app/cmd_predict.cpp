// `paradise predict`: one configuration, the full breakdown.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/strategy/roofline.hpp"
#include "paradise/sweep/memlimit.hpp"
#include "split_layer.hpp"

namespace po = boost::program_options;

namespace paradise::app {
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

void print_json(const strategy::Prediction& p, const strategy::Config& c,
                const strategy::Workload& w) {
  JsonWriter j(std::cout);
  j.begin_object();
  j.key("strategy").value(strategy::kind_name(c.kind));
  j.key("gpus").value(c.gpus);
  j.key("batch").value(c.batch);
  j.key("input").value(w.model.input.str());  // a sample, C x spatial (--resolution)
  j.key("variant").value(strategy::variant_name(c.variant));
  write_training_json(j, c);
  j.key("status").value(strategy::status_name(p.status));
  j.key("reason").value(p.reason);
  j.key("limiting_factor").value(strategy::limit_name(p.limit));
  j.key("iterations_per_epoch").value(p.iterations_per_epoch);
  j.key("iteration_time_s").value(p.iteration_time_s);
  j.key("epoch_time_s").value(p.epoch_time_s);
  j.key("epoch_compute_s").value(p.epoch_compute_s);
  j.key("epoch_communication_s").value(p.epoch_communication_s);
  j.key("epoch_overlapped_s").value(p.epoch_overlapped_s);
  j.key("memory_per_gpu_bytes").value(p.memory_per_gpu_bytes);
  write_split_layer(j, w, p.split_layer, p.split_parts);
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
    j.end_object();
  }
  j.end_object();
  j.key("memory").begin_object();
  for (const auto& part : p.memory) j.key(part.name).value(part.bytes);
  j.end_object();
  j.end_object();
  std::cout << '\n';
}

// One header line and one row: the scalar results, then one column per part.
void print_csv(const strategy::Prediction& p, const strategy::Config& c,
               const strategy::Workload& w) {
  std::string header =
      "strategy,gpus,batch,input,variant,precision,optimizer,zero_stage,recompute,status,reason,"
      "limiting_"
      "factor,iterations_per_epoch,iteration_"
      "time_s,epoch_time_s,epoch_compute_s,epoch_communication_s,epoch_overlapped_s,memory_per_"
      "gpu_bytes";
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
      << figure(p.epoch_overlapped_s) << ',' << figure(p.memory_per_gpu_bytes);
  for (const auto& part : p.communication) {
    header += ',' + csv_field("comm:" + std::string(part.name));
    row << ',' << part.epoch_s;
  }
  for (const auto& part : p.memory) {
    header += ',' + csv_field("mem:" + std::string(part.name));
    row << ',' << part.bytes;
  }
  std::cout << header << '\n' << row.str() << '\n';
}

void print_table(const strategy::Prediction& p, const strategy::Config& c,
                 const strategy::Workload& w) {
  std::cout << "ParaDiSE prediction (" << strategy::variant_name(c.variant) << " model)\n"
            << "  model     " << w.model.name << " at " << w.model.input.str() << ", "
            << with_commas(w.model.params()) << " parameters\n"
            << "  dataset   " << with_commas(w.dataset_samples) << " samples per epoch\n"
            << "  system    " << w.system.name << " (" << w.system.gpu.name << ")\n"
            << "  strategy  " << strategy::kind_name(c.kind) << " on " << c.gpus
            << " GPUs, global batch " << c.batch << " (" << with_commas(p.iterations_per_epoch)
            << " iterations per epoch)\n"
            << "  training  " << strategy::training_summary(c) << "\n"
            << "  compute   " << strategy::compute_source(w, c) << "\n";
  const auto plan = recompute_plan(w, c);
  if (const auto& cuts = plan.checkpoints; !cuts.empty()) {
    std::cout << "  recompute " << cuts.size() + 1 << " segments, checkpoints before";
    for (std::size_t i = 0; i < cuts.size(); ++i) std::cout << (i ? ", " : " ") << cuts[i];
    std::cout << " (each segment but the last run again in the backward pass)\n";
  } else if (plan.applies && !plan.runs) {
    std::cout << "  recompute nothing: no segment plan lowers this step's peak, so no forward "
                 "pass is run again\n";
  }
  if (p.split_layer >= 0) {
    // a split that stops before the last convolution: the default layer config's fallback
    const bool shorter =
        std::any_of(w.active.begin() + p.split_layer + 1, w.active.end(), [](bool a) { return a; });
    std::cout << "  split     the parallel layers up to '"
              << w.model.layers[static_cast<std::size_t>(p.split_layer)].name << "' (layer "
              << p.split_layer << " of " << w.model.layers.size() - 1 << ") in "
              << split_parts_text(p.split_parts, w.model.input.rank)
              << (static_cast<std::size_t>(p.split_layer) + 1 == w.model.layers.size()
                      ? ", every layer split (nothing gathered)"
                      : ", the rest replicated after an allgather")
              << (shorter ? "; the later convolutions are too narrow to split as many ways" : "")
              << "\n";
  }
  std::cout << "\n"
            << "status: " << strategy::status_name(p.status);
  if (!p.reason.empty()) std::cout << " (" << p.reason << ")";
  if (p.status == strategy::Status::Invalid) {
    std::cout << "\n";  // it cannot run: no time or memory to show
    return;
  }
  std::cout << "; limited by " << strategy::limit_name(p.limit) << "\n";
  if (p.status == strategy::Status::OutOfMemory) {
    // what does fit on these GPUs: the largest batch below this one (memlimit's search)
    const auto b = sweep::largest_batch(w, c, 1, c.batch - 1);
    std::cout << "  on " << gpus_text(c.gpus) << " "
              << (b.value > 0 ? "a global batch of up to " + with_commas(b.value) + " fits"
                              : "no smaller global batch fits")
              << " (memlimit for the limits, recommend for other GPU counts and settings)\n";
  }
  std::cout << "\n";
  TextTable t;
  t.add_column("time per epoch", TextTable::Align::Left);
  t.add_column("collective", TextTable::Align::Left);
  t.add_column("GPUs");
  t.add_column("seconds");
  t.add_column("share");
  const auto share = [&](double s) {
    return fixed(p.epoch_time_s > 0 ? 100 * (s / p.epoch_time_s) : 0, 1) + "%";
  };
  t.add_row({"compute (forward + backward)", "-", std::to_string(c.gpus),
             fixed(p.epoch_compute_s, 3), share(p.epoch_compute_s)});
  for (const auto& part : p.communication) {
    t.add_row({std::string(part.name) + " [" + std::string(part.phase) + "]",
               std::string(part.collective), std::to_string(part.gpus), fixed(part.epoch_s, 3),
               share(part.epoch_s)});
  }
  if (p.epoch_overlapped_s > 0)
    t.add_row({"hidden behind compute (overlap)", "", "", fixed(-p.epoch_overlapped_s, 3),
               share(-p.epoch_overlapped_s)});
  t.add_row({"total", "", "", fixed(p.epoch_time_s, 3), "100.0%"});
  t.print(std::cout);
  std::cout << "iteration: " << fixed(p.iteration_time_s * 1e3, 3) << " ms\n\n";
  TextTable m;
  m.add_column("memory per GPU", TextTable::Align::Left);
  m.add_column("bytes");
  m.add_column("", TextTable::Align::Left);
  for (const auto& part : p.memory)
    m.add_row({std::string(part.name), byte_count(part.bytes), human_bytes(part.bytes)});
  m.add_row({"total", byte_count(p.memory_per_gpu_bytes), human_bytes(p.memory_per_gpu_bytes)});
  m.print(std::cout);
}

}  // namespace

int run_predict(const Args& args) {
  po::options_description desc(
      "paradise predict --model M --dataset D --system S --strategy K --gpus P --batch B "
      "[options]");
  strategy::WorkloadSpec spec;
  std::string spatial_split = "w";
  std::int64_t side = 0;  // --resolution
  std::string kind = "data", variant = "paradise", format = "table", allreduce = "ring";
  bool no_roofline = false, no_overlap = false, no_choice = false, gpipe = false,
       keep_gradients = false, leader_reduce = false, allreduce_sums = false, marked_only = false;
  strategy::Config c;
  desc.add_options()("model", po::value(&spec.model)->required(),
                     "zoo name, *.model file or ParaDL .net file")(
      "dataset", po::value(&spec.dataset),
      "dataset name or NAME:SAMPLES:SHAPE (default for .net: its own)")(
      "system", po::value(&spec.system)->default_value("abci"), "built-in system or *.system file")(
      "strategy", po::value(&kind),
      "serial data (default) spatial filter channel pipeline data+filter data+spatial; "
      "paradise variant also data+pipeline daso")("gpus", po::value(&c.gpus)->required(),
                                                  "number of GPUs P")(
      "batch", po::value(&c.batch)->required(), "global mini-batch B")(
      "variant", po::value(&variant),
      "paradise (default: the extended model) or paradl (ParaDL's)")(
      "no-roofline", po::bool_switch(&no_roofline), "paradise: ParaDL's compute (t_l / p)")(
      "no-overlap", po::bool_switch(&no_overlap), "paradise: blocking gradient allreduce")(
      "no-algorithm-choice", po::bool_switch(&no_choice),
      "paradise: use --allreduce, not NCCL's choice")("gpipe", po::bool_switch(&gpipe),
                                                      "paradise: GPipe schedule instead of 1F1B")(
      "leader-reduce", po::bool_switch(&leader_reduce),
      "paradise: hybrids exchange gradients through one leader GPU per group")(
      "daso-epochs", po::value(&c.daso.run_epochs),
      "daso: epochs of the run (default 90) over which the epoch time is the mean")(
      "daso-blocking-epochs", po::value(&c.daso.blocking_epochs),
      "daso: warm-up + cool-down epochs that synchronise every batch (default 8; 0: the "
      "steady state alone)")(
      "allreduce-partial-sums", po::bool_switch(&allreduce_sums),
      "paradise: filter/channel partial sums by allreduce (ParaDL), not reduce-scatter")(
      "keep-activation-gradients", po::bool_switch(&keep_gradients),
      "paradise: every dL/dy alive to the end (TensorFlow's tape), not freed as used")(
      "split-marked-layers-only", po::bool_switch(&marked_only),
      "paradise: spatial splits divide only the layers marked parallel (ParaDL's .lc rule), "
      "not every layer up to the split")("layer-config", po::value(&spec.layer_config),
                                         "ParaDL .lc file: which layers are parallel")(
      "time-per-sample", po::value(&spec.time_per_sample_s), "measured FW+BW seconds per sample")(
      "layer-times", po::value(&spec.layer_times),
      "CSV of measured per-layer times (paradise calibrate --profile, profile_layers.py)")(
      "p2", po::value(&c.p2), "hybrids: GPUs per group (default: GPUs per node)")(
      "segments", po::value(&c.segments), "pipeline: micro-batches S")(
      "allreduce", po::value(&allreduce),
      "gradient allreduce: ring (ParaDL), recursive-doubling, rabenseifner, binomial-tree, "
      "double-binary-tree (with the paradise variant: instead of NCCL's choice)")(
      "fix-paradl-bugs", po::bool_switch(&c.paradl.fix_bugs),
      "fix ParaDL's code quirks (README, \"The cost model (variant paradl)\")")(
      "format", po::value(&format), "table, json or csv");
  TrainingOptions training;
  add_training_options(desc, training);
  add_spatial_split_option(desc, spatial_split);
  add_resolution_option(desc, side);
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Predicts time and memory per GPU of one training configuration."))
    return 0;
  const auto k = strategy::kind_from_name(kind);
  if (!k) throw InputError("--strategy '" + kind + "': expected " + strategy::kind_list());
  c.kind = *k;
  const auto v = strategy::variant_from_name(variant);
  if (!v) throw InputError("--variant '" + variant + "': expected paradl or paradise");
  c.variant = *v;
  apply_training_options(vm, training, c);
  // the policies are the paradise variant's, their help says so ("paradise: ...", "daso: ...",
  // a strategy of that variant only): the paradl variant reproduces ParaDL, which has none of
  // them, and would ignore them without a word
  if (c.variant == strategy::Variant::Paradl) {
    for (const auto& option : desc.options()) {
      const std::string& help = option->description();
      const std::string& name = option->long_name();
      if ((help.starts_with("paradise: ") || help.starts_with("daso: ")) && vm.count(name) &&
          !vm[name].defaulted())
        throw InputError("--" + name +
                         ": a policy of the paradise variant; the paradl variant reproduces "
                         "ParaDL, which has none (drop it, or --variant paradise)");
    }
  }
  const auto& pol = c.daso;
  // whole epochs, and finite: inf / inf made every DASO figure nan with status ok
  const auto whole = [](double e) { return e >= 0 && e <= 1e6 && std::floor(e) == e; };
  if (!whole(pol.run_epochs) || !whole(pol.blocking_epochs) || pol.run_epochs < 1 ||
      pol.blocking_epochs > pol.run_epochs) {
    std::ostringstream m;
    m << "--daso-epochs " << pol.run_epochs << ", --daso-blocking-epochs " << pol.blocking_epochs
      << ": expected whole numbers, 1 <= epochs <= 1000000 and 0 <= blocking epochs <= epochs";
    throw InputError(m.str());
  }
  c.policies.roofline_compute = !no_roofline;
  c.policies.overlap_gradients = !no_overlap;
  // an --allreduce given with the paradise variant replaces NCCL's choice (it was ignored)
  c.policies.choose_algorithm =
      !no_choice && !(vm.count("allreduce") && !vm["allreduce"].defaulted());
  c.policies.one_f_one_b = !gpipe;
  c.policies.free_activation_gradients = !keep_gradients;
  c.policies.split_whole_prefix = !marked_only;
  c.policies.leader_reduce = leader_reduce;
  c.policies.reduce_scatter_partial_sums = !allreduce_sums;
  if (format != "table" && format != "json" && format != "csv")
    throw InputError("--format '" + format + "': expected table, json or csv");
  const auto algorithm = cost::algorithm_from_name(allreduce);
  if (!algorithm)
    throw InputError("--allreduce '" + allreduce +
                     "': expected ring, recursive-doubling, rabenseifner, binomial-tree or "
                     "double-binary-tree");
  c.gradient_allreduce = *algorithm;
  c.spatial_all_dims = spatial_all_dims(spatial_split);
  if (c.gpus < 1) throw InputError("--gpus '" + std::to_string(c.gpus) + "': must be >= 1");
  if (c.batch < 1) throw InputError("--batch '" + std::to_string(c.batch) + "': must be >= 1");
  if (c.p2 < 0)
    throw InputError("--p2 '" + std::to_string(c.p2) + "': must be >= 1 (or 0: GPUs per node)");
  if (c.segments < 0)
    throw InputError("--segments '" + std::to_string(c.segments) +
                     "': must be >= 1 (or 0: as many as GPUs)");
  // options the configuration does not read: refused, not ignored without a word
  using K = strategy::Kind;
  if (vm.count("p2") && !strategy::has_groups(c.kind))
    throw InputError(
        "--p2: GPUs per group of the hybrids (data+filter, data+spatial, "
        "data+pipeline); --strategy " +
        kind + " has no groups");
  if (vm.count("segments") && c.kind != K::Pipeline && c.kind != K::DataPipeline)
    throw InputError(
        "--segments: micro-batches of a pipeline (pipeline, data+pipeline); "
        "--strategy " +
        kind + " has none");
  if (vm.count("spatial-split") && c.kind != K::Spatial && c.kind != K::DataSpatial)
    throw InputError(
        "--spatial-split: how spatial and data+spatial split the samples; "
        "--strategy " +
        kind + " splits none");
  if (c.paradl.fix_bugs && c.variant == strategy::Variant::Paradise)
    throw InputError(
        "--fix-paradl-bugs: fixes ParaDL's code quirks, which the paradise "
        "variant does not have (use it with --variant paradl)");
  const strategy::Workload w = workload_at_resolution(spec, vm, side);
  if (const auto why = strategy::precision_mismatch(w, c.precision); !why.empty())
    throw InputError("--layer-times '" + spec.layer_times + "' and --precision " +
                     training.precision + ": " + why +
                     " (predict at the measured precision, or profile at this one)");
  const strategy::Prediction p = strategy::predict(w, c);
  if (format == "json") {
    print_json(p, c, w);
  } else if (format == "csv") {
    print_csv(p, c, w);
  } else {
    print_table(p, c, w);
  }
  return 0;
}

}  // namespace paradise::app
