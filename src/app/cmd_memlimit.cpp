// `paradise memlimit`: the largest batch, the largest input resolution, and the fewest
// GPUs per resolution for one model, dataset, system and strategy.
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/grid.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_memlimit(const Args& args) {
  po::options_description desc(
      "paradise memlimit --model M --dataset D --system S [--strategy K] --gpus P --batch B "
      "[--resolution LO..HI] [--step N] [--sides A,B,C --gpu-counts LIST]");
  strategy::WorkloadSpec spec;
  std::string kind = "data", resolution, sides, gpu_counts = "1..4096 *2", variant = "paradise",
              format = "table";
  std::int64_t step = 1, max_batch = 1 << 20;
  strategy::Config c;
  desc.add_options()("model", po::value(&spec.model)->required(), "zoo name or model file")(
      "dataset", po::value(&spec.dataset)->required(),
      "dataset (its shape is re-sized for --resolution)")(
      "system", po::value(&spec.system)->default_value("abci"), "system")(
      "strategy", po::value(&kind), "strategy (default data)")(
      "variant", po::value(&variant), "cost model: paradise (default) or paradl")(
      "gpus", po::value(&c.gpus)->required(), "GPUs P")("batch", po::value(&c.batch)->required(),
                                                        "global batch for the resolution searches")(
      "max-batch", po::value(&max_batch), "upper end of the batch search")(
      "resolution", po::value(&resolution), "cube (or square) sides to search: LO..HI")(
      "step", po::value(&step), "side step the model accepts (8 for unet3d)")(
      "sides", po::value(&sides),
      "sides at which to find the fewest GPUs (at --batch) and the largest batch (on --gpus), e.g. "
      "256,512,1024")("gpu-counts", po::value(&gpu_counts),
                      "GPU counts tried for --sides (list or range)")("format", po::value(&format),
                                                                      "table or json");
  std::string spatial_split = "w";
  TrainingOptions training;
  add_training_options(desc, training);
  add_spatial_split_option(desc, spatial_split);
  po::variables_map vm;
  if (!parse_options(args, desc, vm, "Finds memory limits by search.")) return 0;
  const auto k = strategy::kind_from_name(kind);
  if (!k) throw InputError("--strategy '" + kind + "': unknown strategy");
  c.kind = *k;
  const auto v = strategy::variant_from_name(variant);
  if (!v) throw InputError("--variant '" + variant + "': expected paradl or paradise");
  c.variant = *v;
  apply_training_options(vm, training, c);
  if (c.gpus < 1 || c.batch < 1) throw InputError("--gpus and --batch must be >= 1");
  if (step < 1) throw InputError("--step '" + std::to_string(step) + "': must be >= 1");
  if (format != "table" && format != "json")
    throw InputError("--format '" + format + "': expected table or json");
  // options of a search not asked for: refused, not ignored without a word
  if (vm.count("step") && resolution.empty())
    throw InputError("--step: the side step of --resolution, which is not given");
  if (vm.count("sides") && sides.empty())
    throw InputError("--sides '': expected a list of sides >= 1, e.g. 256,512,1024");
  if (vm.count("gpu-counts") && sides.empty())
    throw InputError("--gpu-counts: the GPU counts tried for --sides, which is not given");
  c.spatial_all_dims = spatial_all_dims(spatial_split);
  if (vm.count("spatial-split") && c.kind != strategy::Kind::Spatial &&
      c.kind != strategy::Kind::DataSpatial)
    throw InputError(
        "--spatial-split: how spatial and data+spatial split the samples; "
        "--strategy " +
        kind + " splits none");
  if (max_batch < 1)
    throw InputError("--max-batch '" + std::to_string(max_batch) + "': must be >= 1");
  // every list and range checked before any search prints
  const auto positive = [](const std::string& option, const std::string& text,
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
  };
  std::vector<std::int64_t> range, side_list, counts;
  if (!resolution.empty()) {
    const std::string expected = "LO..HI [+STEP] with 1 <= LO <= HI (an arithmetic range)";
    if (resolution.find('*') != std::string::npos)
      throw InputError("--resolution '" + resolution + "': expected " + expected);
    // one side is predict's and recommend's --resolution; here a range is searched
    if (resolution.find("..") == std::string::npos &&
        resolution.find_first_not_of("0123456789 ") == std::string::npos)
      throw InputError("--resolution '" + resolution + "': memlimit searches a range, " + expected +
                       "; for one side use predict --resolution " + resolution);
    const bool has_step = resolution.find('+') != std::string::npos;
    range =
        positive("--resolution", resolution, expected, has_step ? resolution : resolution + " +1");
    if (has_step) {  // the step written in the range, or --step, not both unless they agree
      const std::int64_t written = range.size() > 1 ? range[1] - range[0] : step;
      if (vm.count("step") && written != step)
        throw InputError("--resolution '" + resolution + "' and --step " + std::to_string(step) +
                         ": two different steps");
      step = written;
    }
  }
  if (!sides.empty()) {
    side_list = positive("--sides", sides, "a list of sides >= 1, e.g. 256,512,1024", sides);
    auto sorted = side_list;  // one row per side: a repeat is a typo (a sweep refuses it too)
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
      throw InputError("--sides '" + sides + "': lists " + std::to_string(*twice) +
                       " more than once");
    // fewest_gpus takes the first count that fits: ascending, each once
    counts =
        positive("--gpu-counts", gpu_counts, "GPU counts >= 1 (a list or a range)", gpu_counts);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  }
  const auto w = strategy::make_workload(spec);
  const sweep::ResolutionFamily family{spec};
  // a side search needs a model that takes other sizes, and every listed side taken
  if (!resolution.empty() && !model::ModelSource::load(spec.model).reshapeable())
    throw InputError("--resolution '" + resolution + "': model '" + spec.model +
                     "' has a fixed input shape (ParaDL .net file): no resolution search");
  for (const auto side : side_list) {
    try {
      family.make(side);
    } catch (const InputError& e) {
      throw InputError("--sides '" + sides + "': side " + std::to_string(side) + ": " + e.what());
    }
  }
  // "none" says why, from the prediction at the low end of the search
  const auto predict_at_batch = [](const strategy::Workload& at, strategy::Config one,
                                   std::int64_t batch) {
    one.batch = batch;
    return strategy::predict(at, one);
  };
  const auto why = [&](const strategy::Workload& at, const strategy::Config& one,
                       std::int64_t batch) {
    const auto p = predict_at_batch(at, one, batch);
    return "at batch " + with_commas(batch) + ": " + std::string(strategy::status_name(p.status)) +
           (p.reason.empty() ? "" : ", " + p.reason);
  };
  // why no batch fits: at the search's low end, the smallest batch the strategy divides evenly
  const auto why_no_batch = [&](const strategy::Workload& at, const sweep::Limit& l) {
    const std::int64_t divides = sweep::batch_step(at, c);  // 0: no batch divides (the GPUs)
    if (divides == 0) return why(at, c, 1);
    return l.evaluations == 0
               ? "no batch up to --max-batch " + with_commas(max_batch) +
                     " that the strategy divides evenly (multiples of " + with_commas(divides) + ")"
               : why(at, c, divides);
  };
  const auto b = sweep::largest_batch(w, c, 1, max_batch);
  // a limit at the top of its search is a lower bound: the next batch the strategy divides,
  // or the next side the model takes, lies past --max-batch or the range (not looked at)
  const auto batch_at_top = [&](const strategy::Workload& at, const sweep::Limit& l) {
    return sweep::batch_at_search_end(at, c, l.value, max_batch);
  };
  const std::string none_batch = b.value > 0 ? "" : why_no_batch(w, b);
  // the searches asked for, then printed as a table or JSON
  std::optional<sweep::Limit> r;
  // why no side fits: the prediction at the smallest side of the range the model takes, and
  // at the largest where it fails otherwise (a split too wide for small sides, out of memory
  // for large ones)
  std::string none_side;
  bool side_at_top = false;  // no later side of the range is taken: a larger one may fit
  if (!resolution.empty()) {
    r = sweep::largest_resolution(family, c, range.front(), range.back(), step);
    const auto taken = [&](std::int64_t side) {
      bool too_large = false;
      if (family.at(side, &too_large)) return sweep::SideTaken::Yes;
      return too_large ? sweep::SideTaken::TooLarge : sweep::SideTaken::No;
    };
    const auto at_side = [&](std::int64_t side) {
      return "side " + std::to_string(side) + " " + why(*family.at(side), c, c.batch);
    };
    const auto at_both_ends = [&]() -> std::string {
      if (const std::string no = family.no_side_reason(); !no.empty()) return no;
      const auto f = sweep::first_side(range.front(), range.back(), step, taken);
      if (f.too_large)
        return "side " + std::to_string(f.side) + " and larger: tensors past the supported sizes";
      if (f.side == 0) {
        // why the first side is not taken (a range off the model's grid: 100..2048 +8 for
        // U-Net, which takes multiples of 8)
        std::string first;
        try {
          family.make(range.front());
        } catch (const InputError& e) {
          first = "; side " + std::to_string(range.front()) + ": " + e.what();
        }
        return (f.exhausted ? "no side of the range that the model takes"
                            : "the model takes none of the range's first 4,096 sides") +
               first;
      }
      std::string reason = at_side(f.side);
      const auto l = sweep::last_side(range.front(), range.back(), step, taken);
      if (l.side > f.side && predict_at_batch(*family.at(l.side), c, c.batch).status !=
                                 predict_at_batch(*family.at(f.side), c, c.batch).status)
        reason += "; " + at_side(l.side);
      return reason;
    };
    if (r->value <= 0) none_side = at_both_ends();
    side_at_top = sweep::side_at_search_end(r->value, range.back(), step, taken);
  }
  // per listed side (each taken, checked above): the fewest GPUs at --batch, and the largest
  // batch on --gpus, as the sweep's memlimit tables give them per resolution
  struct AtSide {
    std::int64_t side = 0, fewest_gpus = 0;  // 0: none of the counts tried
    std::string none_gpus;
    sweep::Limit batch;
    std::string none_batch;
    bool batch_at_top = false;
  };
  // why no GPU count fits: the smallest footprint out of memory, else the largest count tried
  const auto why_no_gpus = [&](const strategy::Workload& at) {
    std::int64_t pick = counts.back();
    double least = 0;
    for (const auto g : counts) {
      auto one = c;
      one.gpus = g;
      const auto p = predict_at_batch(at, one, c.batch);
      if (p.status == strategy::Status::OutOfMemory &&
          (least == 0 || p.memory_per_gpu_bytes < least))
        least = p.memory_per_gpu_bytes, pick = g;
    }
    auto one = c;
    one.gpus = pick;
    return "on " + gpus_text(pick) + (least > 0 ? ", its smallest footprint," : "") + " " +
           why(at, one, c.batch);
  };
  std::vector<AtSide> at_sides;
  for (const auto side : side_list) {
    const auto ws = family.make(side);
    AtSide a{side, sweep::fewest_gpus(ws, c, counts).value, "",
             sweep::largest_batch(ws, c, 1, max_batch), ""};
    if (a.fewest_gpus <= 0) a.none_gpus = why_no_gpus(ws);
    if (a.batch.value <= 0) a.none_batch = why_no_batch(ws, a.batch);
    a.batch_at_top = batch_at_top(ws, a.batch);
    at_sides.push_back(std::move(a));
  }
  if (format == "json") {
    JsonWriter j(std::cout);
    const auto limit = [&](const sweep::Limit& l, const std::string& none, bool at_top) {
      j.key("value");
      l.value > 0 ? j.value(l.value) : j.null();
      j.key("at_search_end").value(at_top);  // a lower bound: larger may fit
      j.key("evaluations").value(l.evaluations);
      j.key("why_none");
      l.value > 0 ? j.null() : j.value(none);
    };
    j.begin_object();
    j.key("model").value(spec.model);
    j.key("dataset").value(spec.dataset);
    j.key("input").value(w.model.input.str());  // a sample, C x spatial
    j.key("system").value(spec.system);
    j.key("strategy").value(kind);
    j.key("gpus").value(c.gpus);
    j.key("batch").value(c.batch);  // of the side searches
    j.key("variant").value(strategy::variant_name(c.variant));
    write_training_json(j, c);
    j.key("largest_batch").begin_object();
    j.key("max_batch").value(max_batch);
    limit(b, none_batch, batch_at_top(w, b));
    j.end_object();
    if (r) {
      j.key("largest_resolution").begin_object();
      j.key("lo").value(range.front());
      j.key("hi").value(range.back());
      j.key("step").value(step);
      limit(*r, none_side, side_at_top);
      j.end_object();
    }
    if (!sides.empty()) {
      j.key("fewest_gpus").begin_array();
      for (const auto& a : at_sides) {
        j.begin_object();
        j.key("side").value(a.side);
        j.key("gpus");
        a.fewest_gpus > 0 ? j.value(a.fewest_gpus) : j.null();  // null: none of the counts tried
        j.key("why_none");
        a.fewest_gpus > 0 ? j.null() : j.value(a.none_gpus);
        j.end_object();
      }
      j.end_array();
      j.key("gpu_counts").begin_array();
      for (const auto g : counts) j.value(g);
      j.end_array();
      j.key("largest_batch_at_sides").begin_array();  // on --gpus, up to --max-batch
      for (const auto& a : at_sides) {
        j.begin_object();
        j.key("side").value(a.side);
        limit(a.batch, a.none_batch, a.batch_at_top);
        j.end_object();
      }
      j.end_array();
    }
    j.end_object();
    std::cout << '\n';
    return 0;
  }
  std::cout << spec.model << " on " << spec.dataset << " (" << w.model.input.str() << "), "
            << spec.system << ", " << kind << " on " << gpus_text(c.gpus) << "\n"
            << "  training: " << strategy::training_summary(c) << "\n"
            << "  largest feasible global batch: "
            << (b.value > 0 ? with_commas(b.value) : "none (" + none_batch + ")")
            << (batch_at_top(w, b)
                    ? " or more: the top of the search (--max-batch " + with_commas(max_batch) + ")"
                    : "")
            << " (" << b.evaluations << " evaluations)\n";
  if (r)
    std::cout << "  largest feasible side at batch " << c.batch << ": "
              << (r->value > 0 ? std::to_string(r->value)
                               : "none in " + resolution + " (" + none_side + ")")
              << (side_at_top ? " or more: the top of the range " + resolution : "") << " ("
              << r->evaluations << " evaluations)\n";
  if (!sides.empty()) {
    TextTable t;
    t.add_column("side");
    t.add_column("fewest GPUs at batch " + with_commas(c.batch));
    t.add_column("largest batch on " + gpus_text(c.gpus));
    std::vector<std::string> notes;  // why "none", below the table
    bool top = false;                // a batch at the top of the search
    for (const auto& a : at_sides) {
      const std::string side = std::to_string(a.side);
      t.add_row(
          {side, a.fewest_gpus > 0 ? std::to_string(a.fewest_gpus) : "none",
           a.batch.value > 0 ? with_commas(a.batch.value) + (a.batch_at_top ? "+" : "") : "none"});
      if (a.batch_at_top) top = true;
      if (a.fewest_gpus <= 0)
        notes.push_back("side " + side + ": no GPU count of --gpu-counts " + gpu_counts +
                        " fits, " + a.none_gpus);
      if (a.batch.value <= 0)
        notes.push_back("side " + side + ": no batch fits on " + gpus_text(c.gpus) + ", " +
                        a.none_batch);
    }
    std::cout << "  per side:\n";
    t.print(std::cout);
    if (top)
      std::cout << "  N+: the top of the batch search (--max-batch " << with_commas(max_batch)
                << "); a larger batch may fit\n";
    for (const auto& n : notes) std::cout << "  " << n << '\n';
  }
  return 0;
}

}  // namespace paradise::app
