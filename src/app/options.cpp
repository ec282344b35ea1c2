#include "options.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "paradise/core/error.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/sweep/checks.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::app {

bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis) {
  desc.add_options()("help,h", "show this help");
  // no positional arguments: a stray word (an unquoted "*2") is an error, not ignored
  namespace po = boost::program_options;
  const po::positional_options_description none;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(none).run(), vm);
  } catch (const po::too_many_positional_options_error&) {
    // name the word: the same parse, the unknown collected, the first one not an option
    const auto loose = po::command_line_parser(args).options(desc).allow_unregistered().run();
    for (const auto& word : po::collect_unrecognized(loose.options, po::include_positional)) {
      if (!word.starts_with("-"))
        throw InputError("unexpected argument '" + word +
                         "' (options are --name value; quote a value with spaces)");
    }
    throw;
  }
  if (vm.count("help")) {
    std::cout << synopsis << "\n\n" << desc << '\n';
    return false;
  }
  boost::program_options::notify(vm);
  return true;
}

void add_measured_compute_options(boost::program_options::options_description& desc,
                                  strategy::WorkloadSpec& spec) {
  namespace po = boost::program_options;
  desc.add_options()("layer-config", po::value(&spec.layer_config),
                     "ParaDL .lc file: which layers are parallel")(
      "time-per-sample", po::value(&spec.time_per_sample_s), "measured FW+BW seconds per sample")(
      "layer-times", po::value(&spec.layer_times),
      "CSV of measured per-layer times (paradise calibrate --profile, profile_layers.py)");
}

system::System system_option(const std::string& name) {
  return named_option("--system", [&] { return system::find_system(name); });
}

void add_epochs_option(boost::program_options::options_description& desc, std::string& text) {
  namespace po = boost::program_options;
  desc.add_options()("epochs-to-target", po::value(&text),
                     "E_MIN[:NOISE_BATCH]: epochs to the target accuracy, E_MIN x (1 + batch / "
                     "NOISE_BATCH), for the time to train (default: the built-in model of "
                     "resnet50 on imagenet and mlperf_cosmoflow on cosmoflow; "
                     "docs/time-to-train.md)");
}

std::optional<model::Convergence> epochs_to_target(const std::string& given,
                                                   const strategy::WorkloadSpec& spec,
                                                   bool resized) {
  if (!given.empty()) return model::parse_convergence(given, {}, "--epochs-to-target");
  if (resized) return std::nullopt;  // the built-ins are measured at the dataset's own size
  return model::builtin_convergence(spec.model, spec.dataset);
}

std::string implementation_help(const std::string& what) {
  return what + ", a built-in (" + implementation::builtin_implementation_names() +
         "; the first is the default) or an *.impl file (docs/implementations.md)";
}

void add_training_options(boost::program_options::options_description& desc, TrainingOptions& t) {
  namespace po = boost::program_options;
  desc.add_options()("precision", po::value(&t.precision),
                     "paradise: fp32, tf32 or mixed (fp16/bf16 with fp32 master weights); "
                     "default: PyTorch's, tf32 on GPUs with TF32 units (A100, H100), else "
                     "fp32, or the precision --layer-times were measured in")(
      "optimizer", po::value(&t.optimizer), "paradise: sgd, momentum (default) or adam")(
      "zero", po::value(&t.zero),
      "paradise: ZeRO stage 0-3 (sharded optimizer state, gradients, "
      "weights)")("recompute", po::bool_switch(&t.recompute),
                  "paradise: activation recomputation (Chen's greedy checkpoint plan)")(
      "eval-samples", po::value(&t.eval_samples),
      "paradise: an evaluation pass per epoch over N samples (forward only, at the training "
      "batch; e.g. 50000 for ImageNet's validation set)")(
      "implementation", po::value(&t.implementation),
      implementation_help("paradise: how the training code moves data").c_str());
}

void apply_training_options(const boost::program_options::variables_map& vm, TrainingOptions& t,
                            strategy::Config& c) {
  const auto given = [&](const char* name) { return vm.count(name) && !vm[name].defaulted(); };
  const bool by_default = t.precision.empty();
  const auto precision = by_default ? strategy::Precision::Fp32  // resolved with the workload
                                    : strategy::precision_from_name(t.precision);
  if (!precision)
    throw InputError("--precision '" + t.precision +
                     "': expected fp32, tf32 or mixed (fp16 and bf16 are taken as mixed)");
  if (c.variant == strategy::Variant::Paradl) {
    // ParaDL models fp32 and none of these policies: they would be ignored without a word
    if (!sweep::paradl_takes(*precision))
      throw InputError("--precision '" + t.precision + "': " + std::string(sweep::kParadlFp32Only));
    const std::string zero = std::to_string(t.zero);
    for (const auto& [option, value] :
         {std::pair<const char*, std::string>{"optimizer", t.optimizer},
          {"zero", zero},
          {"recompute", ""},
          {"eval-samples", std::to_string(t.eval_samples)},
          {"implementation", t.implementation}}) {
      if (given(option))
        throw InputError(std::string("--") + option + (value.empty() ? "" : " '" + value + "'") +
                         ": " + sweep::paradl_policy_refusal("--variant paradise"));
    }
  }
  const auto optimizer = strategy::optimizer_from_name(t.optimizer);
  if (!optimizer)
    throw InputError("--optimizer '" + t.optimizer + "': expected sgd, momentum or adam");
  if (t.zero < 0 || t.zero > 3)
    throw InputError("--zero '" + std::to_string(t.zero) + "': expected 0 to 3");
  c.precision = *precision;
  c.precision_by_default = by_default && c.variant == strategy::Variant::Paradise;
  c.optimizer = *optimizer;
  c.zero_stage = t.zero;
  c.recompute_activations = t.recompute;
  if (t.eval_samples < 0)
    throw InputError("--eval-samples '" + std::to_string(t.eval_samples) + "': must be >= 0");
  c.eval_samples = t.eval_samples;
  if (!t.implementation.empty()) {
    try {
      t.resolved = implementation::find_implementation(t.implementation);
    } catch (const InputError& e) {
      throw InputError("--implementation: " + std::string(e.what()));
    }
  }
  c.implementation = t.resolved.profile;
  c.implementation_name = t.resolved.name;
}

void resolve_workload_settings(strategy::Config& c, const strategy::Workload& w) {
  if (c.precision_by_default) c.precision = strategy::default_precision(w);
  if (const auto why = strategy::host_link_missing(c, w.system); !why.empty())
    throw InputError("--implementation '" + std::string(c.implementation_name) + "': " + why);
}

void add_spatial_split_option(boost::program_options::options_description& desc,
                              std::string& text) {
  desc.add_options()(
      "spatial-split", boost::program_options::value(&text),
      "spatial and data+spatial's groups: w (ParaDL's: the width only), hw (height and "
      "width), all (every spatial dimension) or auto (per configuration the best of them; "
      "data+spatial under --variant paradl: w only); default auto, w with --variant paradl");
}

strategy::SpatialSplit spatial_split_option(const std::string& text, strategy::Variant v) {
  if (text.empty())
    return v == strategy::Variant::Paradl ? strategy::SpatialSplit::W
                                          : strategy::SpatialSplit::Auto;
  const auto s = strategy::spatial_split_from_name(text);
  if (!s) throw InputError("--spatial-split '" + text + "': expected w, hw, all or auto");
  return *s;
}

void add_count_options(boost::program_options::options_description& desc, CountOptions& o,
                       const std::string& defaults) {
  desc.add_options()("p2", boost::program_options::value(&o.p2),
                     ("hybrids: GPUs per group (data+pipeline: stages), a count or auto (every "
                      "divisor of the GPUs from 2 tried, the best kept); " +
                      defaults)
                         .c_str())(
      "segments", boost::program_options::value(&o.segments),
      ("pipelines: micro-batches S, a count or auto (every divisor of a replica's batch "
       "tried, the best kept); " +
       defaults)
          .c_str());
}

std::int64_t count_option(const std::string& option, const std::string& text,
                          std::int64_t fallback) {
  if (text.empty()) return fallback;
  const auto v = strategy::count_from_text(text);
  if (!v) throw InputError("--" + option + " '" + text + "': expected a whole number >= 1 or auto");
  return *v;
}

void apply_count_options(const boost::program_options::variables_map& vm, const CountOptions& o,
                         const std::vector<strategy::Kind>& kinds, const std::string& strategies,
                         std::int64_t fallback, strategy::Config& c) {
  c.p2 = count_option("p2", o.p2, fallback);
  c.segments = count_option("segments", o.segments, fallback);
  const auto any = [&](auto has) { return std::any_of(kinds.begin(), kinds.end(), has); };
  if (vm.count("p2") && !any(strategy::has_groups))
    throw InputError(
        "--p2: GPUs per group of the hybrids (data+filter, data+spatial, data+pipeline); "
        "--strategy " +
        strategies + " has no groups");
  if (vm.count("segments") && !any(strategy::has_micro_batches))
    throw InputError(
        "--segments: micro-batches of a pipeline (pipeline, data+pipeline); --strategy " +
        strategies + " has none");
}

void add_resolution_option(boost::program_options::options_description& desc, std::int64_t& side,
                           std::string& samples) {
  desc.add_options()("resolution", boost::program_options::value(&side),
                     "every spatial extent of the dataset's samples set to this side (a "
                     "square, or a cube for 3-D data), as a sweep's resolution axis; measured "
                     "times (--time-per-sample, --layer-times) must be of this resolution")(
      "resolution-samples", boost::program_options::value(&samples),
      "with --resolution: fixed (the dataset's samples per epoch, default) or voxels (the same "
      "voxels per epoch: 128^3 -> 256^3 is 1/8 of the samples)");
}

strategy::Workload workload_at_resolution(const strategy::WorkloadSpec& spec,
                                          const boost::program_options::variables_map& vm,
                                          std::int64_t side, const std::string& samples) {
  if (samples != "fixed" && samples != "voxels")
    throw InputError("--resolution-samples '" + samples + "': expected fixed or voxels");
  if (!vm.count("resolution")) {
    if (vm.count("resolution-samples") && !vm["resolution-samples"].defaulted())
      throw InputError("--resolution-samples: re-sizes --resolution, which is not given");
    return strategy::make_workload(spec);
  }
  const std::string option = "--resolution " + std::to_string(side) + ": ";
  if (side < 1) throw InputError(option + "must be >= 1");
  const auto source = model::ModelSource::load(spec.model);
  if (!source.reshapeable())
    throw InputError(option + "model '" + spec.model +
                     "' is a ParaDL .net file, whose input shape is fixed");
  if (spec.dataset.empty())
    throw InputError(option + "re-sizes the samples of --dataset, which is not given");
  model::find_dataset(spec.dataset);  // an unknown dataset is said of --dataset
  strategy::WorkloadSpec at = spec;
  at.dataset = model::dataset_at_side(  // the sweep's rule
      spec.dataset, side,
      samples == "voxels" ? model::SamplesAtSide::SameVoxels : model::SamplesAtSide::Fixed);
  // a shape past the supported sizes, and what the model cannot take at this side, are said
  // of the option; other errors (a layer times file) as without it
  const std::string where = option.substr(0, option.size() - 2);
  const model::Shape sample = model::find_dataset(at.dataset, {where, 0}).sample;
  try {
    source.stats(sample);
  } catch (const InputError& e) {
    throw InputError(option + "samples " + sample.str() + ": " + e.what());
  }
  return strategy::make_workload(at);
}

}  // namespace paradise::app
