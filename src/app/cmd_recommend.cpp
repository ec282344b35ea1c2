// `paradise recommend`: its options, then recommend::recommend() and its report.
#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/recommend/recommend.hpp"
#include "paradise/report/recommend.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

using strategy::Kind;

struct RecommendOptions {
  strategy::WorkloadSpec spec;
  std::string objective = "time", variant = "paradise", format = "table", range, strategies,
              spatial_split;                                 // "": the variant's default
  std::int64_t max_gpus = 0, batch = 0, top = 10, side = 0;  // side: --resolution
  std::string resolution_samples = "fixed";
  TrainingOptions training;
  std::string epochs;   // --epochs-to-target
  CountOptions counts;  // --p2, --segments
};

void describe(po::options_description& desc, RecommendOptions& o) {
  desc.add_options()("model", po::value(&o.spec.model)->required(),
                     "zoo name, *.model file or ParaDL .net file")(
      "dataset", po::value(&o.spec.dataset),
      "dataset name or NAME:SAMPLES:SHAPE (default for .net: its own)")(
      "system", po::value(&o.spec.system)->default_value("abci"),
      "built-in system or *.system file")("max-gpus", po::value(&o.max_gpus)->required(),
                                          "largest GPU count P: tries 1, 2, 4, ... up to P, and P")(
      "batch", po::value(&o.batch), "global mini-batch B")(
      "batch-range", po::value(&o.range),
      "global mini-batches A..B: A, the powers of two between, and B")(
      "objective", po::value(&o.objective),
      "time (epoch time), gpu-hours (epoch time x GPUs), memory-headroom (free device memory), "
      "time-to-train or gpu-hours-to-train (x the epochs to target at each batch; "
      "--epochs-to-target)")("top", po::value(&o.top), "configurations to list (default 10)")(
      "strategies", po::value(&o.strategies),
      "comma-separated strategies to consider (default: all; serial only on 1 GPU)")(
      "variant", po::value(&o.variant), "cost model: paradise (default) or paradl");
  add_measured_compute_options(desc, o.spec);
  desc.add_options()("format", po::value(&o.format), "table or json");
  add_training_options(desc, o.training);
  add_epochs_option(desc, o.epochs);
  add_spatial_split_option(desc, o.spatial_split);
  add_count_options(desc, o.counts,
                    "default auto (searched), with --variant paradl GPUs per node and as many "
                    "micro-batches as stages");
  add_resolution_option(desc, o.side, o.resolution_samples);
}

std::int64_t parse_positive(std::string_view s, const std::string& what) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1) throw InputError(what);
  return v;
}

/// --batch B or --batch-range A..B (1 <= A <= B): the batches tried.
std::vector<std::int64_t> batches(const po::variables_map& vm, const RecommendOptions& o) {
  const bool has_batch = vm.count("batch") > 0, has_range = vm.count("batch-range") > 0;
  if (has_batch && has_range)
    throw InputError("--batch '" + std::to_string(o.batch) + "' and --batch-range '" + o.range +
                     "': give one of them");
  if (!has_batch && !has_range) throw InputError("--batch or --batch-range: one is required");
  if (has_batch) {
    if (o.batch < 1) throw InputError("--batch '" + std::to_string(o.batch) + "': must be >= 1");
    return {o.batch};
  }
  const std::string what = "--batch-range '" + o.range +
                           "': expected A..B with whole numbers 1 <= A <= B, e.g. 256..4096";
  const auto dots = o.range.find("..");
  if (dots == std::string::npos) throw InputError(what);
  const std::string_view s(o.range);
  const auto lo = parse_positive(s.substr(0, dots), what);
  const auto hi = parse_positive(s.substr(dots + 2), what);
  if (lo > hi) throw InputError(what);
  return recommend::batch_values(lo, hi);
}

/// --strategies as a list in the order given, each once (a repeat is refused); empty: what the
/// variant models.
std::vector<Kind> kinds(const po::variables_map& vm, const std::string& text,
                        strategy::Variant variant) {
  std::vector<Kind> out;
  if (vm.count("strategies") && trim(text).empty())  // it was taken as "all"
    throw InputError("--strategies '': expected a comma-separated list of " +
                     strategy::kind_list());
  if (text.empty()) {
    for (const Kind k : strategy::all_kinds())
      if (strategy::models(variant, k)) out.push_back(k);
    return out;
  }
  for (const auto part : split(text, ',')) {
    const std::string name(trim(part));
    const auto k = strategy::kind_from_name(name);
    if (!k) {
      std::string message = "--strategies '";
      message.append(text).append("': '").append(name).append("' is not one of ");
      throw InputError(message + strategy::kind_list());
    }
    // each once, as a sweep's strategy axis (sweep_file.cpp: "lists X more than once")
    if (std::find(out.begin(), out.end(), *k) != out.end())
      throw InputError(std::string("--strategies '").append(text).append("': lists ").append(name) +
                       " more than once");
    out.push_back(*k);
  }
  return out;
}

/// The settings and the search, every option checked before any file is read.
std::pair<strategy::Config, recommend::Search> parse(const po::variables_map& vm,
                                                     RecommendOptions& o) {
  const auto objective = recommend::objective_from_name(o.objective);
  if (!objective)
    throw InputError("--objective '" + o.objective +
                     "': expected time, gpu-hours, memory-headroom, time-to-train or "
                     "gpu-hours-to-train");
  const auto variant = strategy::variant_from_name(o.variant);
  if (!variant) throw InputError("--variant '" + o.variant + "': expected paradl or paradise");
  strategy::Config c;  // every configuration's settings but strategy, GPUs and batch
  c.variant = *variant;
  apply_training_options(vm, o.training, c);
  if (o.format != "table" && o.format != "json")
    throw InputError("--format '" + o.format + "': expected table or json");
  if (o.max_gpus < 1)
    throw InputError("--max-gpus '" + std::to_string(o.max_gpus) + "': must be >= 1");
  if (o.top < 1) throw InputError("--top '" + std::to_string(o.top) + "': must be >= 1");
  c.spatial_split = spatial_split_option(o.spatial_split, c.variant);
  recommend::Search s;
  s.objective = *objective;
  s.top = static_cast<std::size_t>(o.top);
  s.batches = batches(vm, o);
  s.kinds = kinds(vm, o.strategies, *variant);
  s.counts = recommend::gpu_counts(o.max_gpus);
  apply_count_options(vm, o.counts, s.kinds, o.strategies.empty() ? "(all)" : o.strategies,
                      c.variant == strategy::Variant::Paradise ? strategy::kSearched : 0, c);
  return {c, s};
}

/// --dataset as given; for a .net model without it, its own as --dataset would take it.
std::string dataset_text(const strategy::WorkloadSpec& spec) {
  if (!spec.dataset.empty()) return spec.dataset;
  const auto src = model::ModelSource::load(spec.model);
  if (!src.paradl()) return spec.dataset;
  return src.paradl()->dataset + ":" + std::to_string(src.paradl()->samples) + ":" +
         src.default_input().str();
}

}  // namespace

int run_recommend(const Args& args) {
  po::options_description desc(
      "paradise recommend --model M --dataset D --system S --max-gpus P (--batch B | "
      "--batch-range A..B) [options]");
  RecommendOptions o;
  describe(desc, o);
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Ranks every strategy, GPU count and batch by an objective and says why the "
                     "other strategies lost."))
    return 0;
  auto [c, search] = parse(vm, o);
  // Name the option in the loaders' messages ("unknown system 'x'").
  system_option(o.spec.system);
  named_option("--model", [&] { model::ModelSource::load(o.spec.model); });
  search.epochs = epochs_to_target(o.epochs, o.spec, o.side > 0);
  const bool to_train = search.objective == recommend::Objective::TimeToTrain ||
                        search.objective == recommend::Objective::GpuHoursToTrain;
  if (to_train && !search.epochs)
    throw InputError("--objective '" + o.objective + "': no epochs-to-target model for model '" +
                     o.spec.model + "' on dataset '" + o.spec.dataset +
                     (o.side > 0 ? "' at --resolution " + std::to_string(o.side) : "'") +
                     ": give --epochs-to-target E_MIN[:NOISE_BATCH] (docs/time-to-train.md)");
  const strategy::Workload w = workload_at_resolution(o.spec, vm, o.side, o.resolution_samples);
  resolve_workload_settings(c, w);
  if (const auto why = strategy::precision_mismatch(w, c.precision); !why.empty())
    throw InputError("--layer-times '" + o.spec.layer_times + "' and --precision " +
                     o.training.precision + ": " + why +
                     " (recommend at the measured precision, or profile at this one)");
  const auto r = recommend::recommend(w, c, search);
  if (o.format == "json") {
    report::print_recommendation_json(std::cout, w, c, search, r, dataset_text(o.spec));
  } else {
    report::print_recommendation_table(std::cout, w, c, search, r);
  }
  return 0;
}

}  // namespace paradise::app
