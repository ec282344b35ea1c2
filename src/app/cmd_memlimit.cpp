// `paradise memlimit`: its options, then report::find_memlimits() and its report.
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/report/memlimit.hpp"
#include "paradise/sweep/checks.hpp"
#include "paradise/sweep/grid.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

struct MemlimitOptions {
  report::MemlimitQuery q;  // spec, max_batch, step and the GPUs and batch of c bound
  std::string sides, variant = "paradise", format = "table", spatial_split;
  TrainingOptions training;
  CountOptions counts;  // --p2, --segments
};

void describe(po::options_description& desc, MemlimitOptions& o) {
  auto& q = o.q;
  q.strategy_text = "data";
  q.gpu_counts_text = "1..4096 *2";
  desc.add_options()("model", po::value(&q.spec.model)->required(), "zoo name or model file")(
      "dataset", po::value(&q.spec.dataset)->required(),
      "dataset (its shape is re-sized for --resolution)")(
      "system", po::value(&q.spec.system)->default_value("abci"), "system")(
      "strategy", po::value(&q.strategy_text), "strategy (default data)")(
      "variant", po::value(&o.variant), "cost model: paradise (default) or paradl")(
      "gpus", po::value(&q.c.gpus)->required(), "GPUs P")(
      "batch", po::value(&q.c.batch)->required(), "global batch for the resolution searches")(
      "max-batch", po::value(&q.max_batch), "upper end of the batch search")(
      "resolution", po::value(&q.resolution_text), "cube (or square) sides to search: LO..HI")(
      "step", po::value(&q.step), "side step the model accepts (8 for unet3d)")(
      "sides", po::value(&o.sides),
      "sides at which to find the fewest GPUs (at --batch) and the largest batch (on --gpus), e.g. "
      "256,512,1024")("gpu-counts", po::value(&q.gpu_counts_text),
                      "GPU counts tried for --sides (list or range)")(
      "format", po::value(&o.format), "table or json");
  add_training_options(desc, o.training);
  add_spatial_split_option(desc, o.spatial_split);
  add_count_options(desc, o.counts,
                    "default auto (searched), with --variant paradl GPUs per node and as many "
                    "micro-batches as stages");
}

/// The settings, and options of a search not asked for refused, not ignored without a word.
void check_settings(const po::variables_map& vm, MemlimitOptions& o) {
  auto& q = o.q;
  auto& c = q.c;
  const auto k = strategy::kind_from_name(q.strategy_text);
  if (!k) throw InputError("--strategy '" + q.strategy_text + "': unknown strategy");
  c.kind = *k;
  const auto v = strategy::variant_from_name(o.variant);
  if (!v) throw InputError("--variant '" + o.variant + "': expected paradl or paradise");
  c.variant = *v;
  apply_training_options(vm, o.training, c);
  // the checks a sweep's gpus and batch lists share (paradise/sweep/checks.hpp)
  if (sweep::first_below_one({c.gpus, c.batch}))
    throw InputError("--gpus and --batch must be >= 1");
  if (q.step < 1) throw InputError("--step '" + std::to_string(q.step) + "': must be >= 1");
  if (o.format != "table" && o.format != "json")
    throw InputError("--format '" + o.format + "': expected table or json");
  if (vm.count("step") && q.resolution_text.empty())
    throw InputError("--step: the side step of --resolution, which is not given");
  if (vm.count("sides") && o.sides.empty())
    throw InputError("--sides '': expected a list of sides >= 1, e.g. 256,512,1024");
  if (vm.count("gpu-counts") && o.sides.empty())
    throw InputError("--gpu-counts: the GPU counts tried for --sides, which is not given");
  c.spatial_split = spatial_split_option(o.spatial_split, c.variant);
  if (vm.count("spatial-split") && c.kind != strategy::Kind::Spatial &&
      c.kind != strategy::Kind::DataSpatial)
    throw InputError(
        "--spatial-split: how spatial and data+spatial split the samples; "
        "--strategy " +
        q.strategy_text + " splits none");
  if (q.max_batch < 1)
    throw InputError("--max-batch '" + std::to_string(q.max_batch) + "': must be >= 1");
  apply_count_options(vm, o.counts, {c.kind}, q.strategy_text,
                      c.variant == strategy::Variant::Paradise ? strategy::kSearched : 0, c);
}

/// The values of a list or range option, each >= 1.
std::vector<std::int64_t> positive(const std::string& option, const std::string& text,
                                   const std::string& expected, const std::string& parsed_text) {
  std::vector<std::int64_t> values;
  try {  // no origin or key: the parser's message is its reason alone
    values = sweep::parse_int_values(parsed_text, {}, "");
  } catch (const InputError& e) {
    throw InputError(option + " '" + text + "': " + e.what() + "; expected " + expected);
  }
  if (values.empty() || *std::min_element(values.begin(), values.end()) < 1)
    throw InputError(option + " '" + text + "': expected " + expected);
  return values;
}

/// --resolution LO..HI [+STEP] into q.range and q.step.
void parse_resolution(const po::variables_map& vm, report::MemlimitQuery& q) {
  const std::string& text = q.resolution_text;
  const std::string expected = "LO..HI [+STEP] with 1 <= LO <= HI (an arithmetic range)";
  if (text.find('*') != std::string::npos)
    throw InputError("--resolution '" + text + "': expected " + expected);
  // one side is predict's and recommend's --resolution; here a range is searched
  if (text.find("..") == std::string::npos &&
      text.find_first_not_of("0123456789 ") == std::string::npos)
    throw InputError("--resolution '" + text + "': memlimit searches a range, " + expected +
                     "; for one side use predict --resolution " + text);
  const bool has_step = text.find('+') != std::string::npos;
  q.range = positive("--resolution", text, expected, has_step ? text : text + " +1");
  if (has_step) {  // the step written in the range, or --step, not both unless they agree
    const std::int64_t written = q.range.size() > 1 ? q.range[1] - q.range[0] : q.step;
    if (vm.count("step") && written != q.step)
      throw InputError("--resolution '" + text + "' and --step " + std::to_string(q.step) +
                       ": two different steps");
    q.step = written;
  }
}

/// --sides (each once) into q.sides and --gpu-counts (ascending, each once) into q.counts.
void parse_sides(const std::string& sides, report::MemlimitQuery& q) {
  q.sides = positive("--sides", sides, "a list of sides >= 1, e.g. 256,512,1024", sides);
  auto sorted = q.sides;  // one row per side: a repeat is a typo (a sweep refuses it too)
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    throw InputError("--sides '" + sides + "': lists " + std::to_string(*twice) +
                     " more than once");
  // fewest_gpus takes the first count that fits: ascending, each once
  q.counts = positive("--gpu-counts", q.gpu_counts_text, "GPU counts >= 1 (a list or a range)",
                      q.gpu_counts_text);
  std::sort(q.counts.begin(), q.counts.end());
  q.counts.erase(std::unique(q.counts.begin(), q.counts.end()), q.counts.end());
}

/// A side search needs a model that takes other sizes, and every listed side taken.
void check_sides_taken(const MemlimitOptions& o, const sweep::ResolutionFamily& family) {
  const auto& q = o.q;
  if (!q.resolution_text.empty() && !model::ModelSource::load(q.spec.model).reshapeable())
    throw InputError("--resolution '" + q.resolution_text + "': model '" + q.spec.model +
                     "' has a fixed input shape (ParaDL .net file): no resolution search");
  for (const auto side : q.sides) {
    try {
      family.make(side);
    } catch (const InputError& e) {
      throw InputError("--sides '" + o.sides + "': side " + std::to_string(side) + ": " + e.what());
    }
  }
}

}  // namespace

int run_memlimit(const Args& args) {
  po::options_description desc(
      "paradise memlimit --model M --dataset D --system S [--strategy K] --gpus P --batch B "
      "[--resolution LO..HI] [--step N] [--sides A,B,C --gpu-counts LIST]");
  MemlimitOptions o;
  describe(desc, o);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, "Finds memory limits by search.")) return 0;
  check_settings(vm, o);
  // every list and range checked before any search prints
  if (!o.q.resolution_text.empty()) parse_resolution(vm, o.q);
  if (!o.sides.empty()) parse_sides(o.sides, o.q);
  const auto w = strategy::make_workload(o.q.spec);
  resolve_workload_settings(o.q.c, w);
  const sweep::ResolutionFamily family{o.q.spec};
  check_sides_taken(o, family);
  const auto m = report::find_memlimits(o.q, w, family);
  if (o.format == "json") {
    report::print_memlimits_json(std::cout, o.q, m);
  } else {
    report::print_memlimits_table(std::cout, o.q, m);
  }
  return 0;
}

}  // namespace paradise::app
