// `paradise predict`: its options, then strategy::predict() and its report.
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/report/predict.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/checks.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

struct PredictOptions {
  strategy::WorkloadSpec spec;
  std::string spatial_split;  // "": the variant's default
  std::int64_t side = 0;      // --resolution
  std::string resolution_samples = "fixed";
  std::string kind = "data", variant = "paradise", format = "table", allreduce = "ring";
  bool no_roofline = false, no_overlap = false, no_choice = false, gpipe = false,
       keep_gradients = false, leader_reduce = false, allreduce_sums = false, marked_only = false,
       alike_gpus = false;
  strategy::Config c;
  TrainingOptions training;
  std::string epochs;   // --epochs-to-target
  CountOptions counts;  // --p2, --segments
};

void describe(po::options_description& desc, PredictOptions& o) {
  auto& c = o.c;
  desc.add_options()("model", po::value(&o.spec.model)->required(),
                     "zoo name, *.model file or ParaDL .net file")(
      "dataset", po::value(&o.spec.dataset),
      "dataset name or NAME:SAMPLES:SHAPE (default for .net: its own)")(
      "system", po::value(&o.spec.system)->default_value("abci"),
      "built-in system or *.system file")(
      "strategy", po::value(&o.kind),
      "serial data (default) spatial filter channel pipeline data+filter data+spatial; "
      "paradise variant also data+pipeline daso")("gpus", po::value(&c.gpus)->required(),
                                                  "number of GPUs P")(
      "batch", po::value(&c.batch)->required(), "global mini-batch B")(
      "variant", po::value(&o.variant),
      "paradise (default: the extended model) or paradl (ParaDL's)")(
      "no-roofline", po::bool_switch(&o.no_roofline), "paradise: ParaDL's compute (t_l / p)")(
      "no-overlap", po::bool_switch(&o.no_overlap), "paradise: blocking gradient allreduce")(
      "no-algorithm-choice", po::bool_switch(&o.no_choice),
      "paradise: use --allreduce, not NCCL's choice")("gpipe", po::bool_switch(&o.gpipe),
                                                      "paradise: GPipe schedule instead of 1F1B")(
      "leader-reduce", po::bool_switch(&o.leader_reduce),
      "paradise: hybrids exchange gradients through one leader GPU per group")(
      "daso-epochs", po::value(&c.daso.run_epochs),
      "daso: epochs of the run (default 90) over which the epoch time is the mean")(
      "daso-blocking-epochs", po::value(&c.daso.blocking_epochs),
      "daso: warm-up + cool-down epochs that synchronise every batch (default 8; 0: the "
      "steady state alone)")(
      "allreduce-partial-sums", po::bool_switch(&o.allreduce_sums),
      "paradise: filter/channel partial sums by allreduce (ParaDL), not reduce-scatter")(
      "keep-activation-gradients", po::bool_switch(&o.keep_gradients),
      "paradise: every dL/dy alive to the end (TensorFlow's tape), not freed as used")(
      "split-marked-layers-only", po::bool_switch(&o.marked_only),
      "paradise: spatial splits divide only the layers marked parallel (ParaDL's .lc rule), "
      "not every layer up to the split")(
      "no-slowest-gpu-wait", po::bool_switch(&o.alike_gpus),
      "paradise: GPUs alike, no wait for the slowest of a step (ParaDL)");
  add_measured_compute_options(desc, o.spec);
  add_count_options(desc, o.counts, "default: GPUs per node, and as many micro-batches as stages");
  desc.add_options()(
      "allreduce", po::value(&o.allreduce),
      "gradient allreduce: ring (ParaDL), recursive-doubling, rabenseifner, binomial-tree, "
      "double-binary-tree (with the paradise variant: instead of NCCL's choice)")(
      "fix-paradl-bugs", po::bool_switch(&c.paradl.fix_bugs),
      "fix ParaDL's code quirks (README, \"The cost model (variant paradl)\")")(
      "format", po::value(&o.format), "table, json or csv");
  add_training_options(desc, o.training);
  add_epochs_option(desc, o.epochs);
  add_spatial_split_option(desc, o.spatial_split);
  add_resolution_option(desc, o.side, o.resolution_samples);
}

/// The policies are the paradise variant's, their help says so ("paradise: ...", "daso: ...",
/// a strategy of that variant only): the paradl variant reproduces ParaDL, which has none of
/// them, and would ignore them without a word.
void refuse_paradise_policies(const po::options_description& desc, const po::variables_map& vm) {
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

/// The policies' switches and DASO's epochs into c.policies, checked.
void apply_policies(const po::variables_map& vm, const PredictOptions& o, strategy::Config& c) {
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
  c.policies.roofline_compute = !o.no_roofline;
  c.policies.overlap_gradients = !o.no_overlap;
  // an --allreduce given with the paradise variant replaces NCCL's choice (it was ignored)
  c.policies.choose_algorithm =
      !o.no_choice && !(vm.count("allreduce") && !vm["allreduce"].defaulted());
  c.policies.one_f_one_b = !o.gpipe;
  c.policies.free_activation_gradients = !o.keep_gradients;
  c.policies.split_whole_prefix = !o.marked_only;
  c.policies.wait_for_slowest_gpu = !o.alike_gpus;
  c.policies.leader_reduce = o.leader_reduce;
  c.policies.reduce_scatter_partial_sums = !o.allreduce_sums;
}

/// Counts in range, and no option the configuration does not read: refused, not ignored
/// without a word.
void check_counts(const po::variables_map& vm, const std::string& kind, const strategy::Config& c) {
  // the checks a sweep's gpus and batch lists share (paradise/sweep/checks.hpp)
  if (const auto bad = sweep::first_below_one({c.gpus}))
    throw InputError("--gpus '" + std::to_string(*bad) + "': must be >= 1");
  if (const auto bad = sweep::first_below_one({c.batch}))
    throw InputError("--batch '" + std::to_string(*bad) + "': must be >= 1");
  // --p2 and --segments: counts >= 1 or auto, each for a strategy that has it
  // (apply_count_options; 0, the configuration's "not given", was taken silently as the
  // default: issue 35)
  using K = strategy::Kind;
  if (vm.count("spatial-split") && c.kind != K::Spatial && c.kind != K::DataSpatial)
    throw InputError(
        "--spatial-split: how spatial and data+spatial split the samples; "
        "--strategy " +
        kind + " splits none");
  if (c.paradl.fix_bugs && c.variant == strategy::Variant::Paradise)
    throw InputError(
        "--fix-paradl-bugs: fixes ParaDL's code quirks, which the paradise "
        "variant does not have (use it with --variant paradl)");
}

/// The configuration of the options, every one checked.
strategy::Config parse(const po::options_description& desc, const po::variables_map& vm,
                       PredictOptions& o) {
  strategy::Config c = o.c;
  const auto k = strategy::kind_from_name(o.kind);
  if (!k) throw InputError("--strategy '" + o.kind + "': expected " + strategy::kind_list());
  c.kind = *k;
  const auto v = strategy::variant_from_name(o.variant);
  if (!v) throw InputError("--variant '" + o.variant + "': expected paradl or paradise");
  c.variant = *v;
  apply_training_options(vm, o.training, c);
  if (c.variant == strategy::Variant::Paradl) refuse_paradise_policies(desc, vm);
  apply_policies(vm, o, c);
  if (o.format != "table" && o.format != "json" && o.format != "csv")
    throw InputError("--format '" + o.format + "': expected table, json or csv");
  const auto algorithm = cost::algorithm_from_name(o.allreduce);
  if (!algorithm)
    throw InputError("--allreduce '" + o.allreduce +
                     "': expected ring, recursive-doubling, rabenseifner, binomial-tree or "
                     "double-binary-tree");
  c.gradient_allreduce = *algorithm;
  c.spatial_split = spatial_split_option(o.spatial_split, c.variant);
  apply_count_options(vm, o.counts, {c.kind}, o.kind, 0, c);
  check_counts(vm, o.kind, c);
  return c;
}

}  // namespace

int run_predict(const Args& args) {
  po::options_description desc(
      "paradise predict --model M --dataset D --system S --strategy K --gpus P --batch B "
      "[options]");
  PredictOptions o;
  describe(desc, o);
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Predicts time and memory per GPU of one training configuration."))
    return 0;
  strategy::Config c = parse(desc, vm, o);
  const strategy::Workload w = workload_at_resolution(o.spec, vm, o.side, o.resolution_samples);
  resolve_workload_settings(c, w);
  if (const auto why = strategy::precision_mismatch(w, c.precision); !why.empty())
    throw InputError("--layer-times '" + o.spec.layer_times + "' and --precision " +
                     o.training.precision + ": " + why +
                     " (predict at the measured precision, or profile at this one)");
  const auto epochs = epochs_to_target(o.epochs, o.spec, o.side > 0);
  const strategy::Prediction p = strategy::predict(w, c);
  if (o.format == "json") {
    report::print_prediction_json(std::cout, p, c, w, o.spec, epochs);
  } else if (o.format == "csv") {
    report::print_prediction_csv(std::cout, p, c, w, epochs);
  } else {
    report::print_prediction_table(std::cout, p, c, w, epochs);
  }
  return 0;
}

}  // namespace paradise::app
