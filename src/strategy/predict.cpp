// The oracle: validates a configuration, then dispatches on (strategy, cost model) to
// ParaDL's formulas (paradl/, Kahira et al.; TR Table III) or the extended model's
// (extended/, its memory account in memory/). Both fill one Builder (builder.hpp).
#include "paradise/strategy/predict.hpp"

#include <cstdint>
#include <string>
#include <utility>

#include "extended/extended.hpp"
#include "memory/memory.hpp"
#include "paradl/paradl.hpp"
#include "planning.hpp"

namespace paradise::strategy {
namespace {

using detail::Builder;
using detail::Totals;

// What every strategy needs: GPUs and batch at least 1, within the system and the dataset.
void validate(const Workload& w, const Config& c, Builder& b) {
  if (c.gpus < 1) b.invalid("GPU count must be >= 1");
  if (c.batch < 1) b.invalid("batch must be >= 1");
  if (c.gpus > w.system.max_gpus)
    b.invalid("system '" + w.system.name + "' has " + std::to_string(w.system.max_gpus) + " GPUs");
  if (c.batch > w.dataset_samples)
    b.invalid("batch " + std::to_string(c.batch) + " > the dataset's " +
              std::to_string(w.dataset_samples) + " samples (an epoch is less than one batch)");
}

void paradl_strategy(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  switch (c.kind) {
    case Kind::Serial:
      return paradl::serial(w, c, s, b);
    case Kind::Data:
      return paradl::data(w, c, s, b);
    case Kind::Filter:
      return paradl::filter_channel(w, c, s, b, true);
    case Kind::Channel:
      return paradl::filter_channel(w, c, s, b, false);
    case Kind::Pipeline:
      return paradl::pipeline(w, c, s, b);
    case Kind::Spatial:
      return paradl::spatial(w, c, s, b);
    case Kind::DataFilter:
      return paradl::data_filter(w, c, s, b);
    case Kind::DataSpatial:
      return paradl::data_spatial(w, c, s, b);
    case Kind::DataPipeline:
      return b.invalid("data+pipeline is modelled by the paradise variant only");
    case Kind::Daso:
      return b.invalid("daso is modelled by the paradise variant only");
  }
}

void extended_strategy(const Workload& w, const Config& c, const Totals& s, Builder& b,
                       ComputeMemo* memo) {
  switch (c.kind) {
    case Kind::Serial:
      return extended::serial(w, c, s, b, memo);
    case Kind::Data:
      return extended::data(w, c, s, b, memo);
    case Kind::Filter:
      return extended::filter_channel(w, c, s, b, memo, true);
    case Kind::Channel:
      return extended::filter_channel(w, c, s, b, memo, false);
    case Kind::Pipeline:
      return extended::pipeline(w, c, s, b, memo);
    case Kind::DataPipeline:
      return extended::data_pipeline(w, c, s, b, memo);
    case Kind::Daso:
      return extended::daso(w, c, s, b, memo);
    case Kind::Spatial:
      return extended::spatial(w, c, s, b, memo);
    case Kind::DataFilter:
      return extended::data_filter(w, c, s, b, memo);
    case Kind::DataSpatial:
      return extended::data_spatial(w, c, s, b, memo);
  }
}

}  // namespace

Prediction predict(const Workload& w, const Config& c, ComputeMemo* memo) {
  Prediction p;
  predict_into(w, sum_layers(w), c, p, memo);
  return p;
}

Prediction predict(const Workload& w, const Config& c) {
  return predict(w, c, nullptr);
}

namespace {

// Feasible before out of memory before invalid; then the shorter epoch (feasible) or the
// smaller footprint (out of memory).
bool better_shape(const Prediction& a, const Prediction& b) {
  if (a.status != b.status) return a.status < b.status;
  if (a.status == Status::Ok && a.epoch_time_s != b.epoch_time_s)
    return a.epoch_time_s < b.epoch_time_s;
  return a.status != Status::Invalid && a.memory_per_gpu_bytes < b.memory_per_gpu_bytes;
}

// Each divisor d >= from of n > 0, ascending, without storage: d up to sqrt(n), then n / d.
template <class Visit>
void for_each_divisor(std::int64_t n, std::int64_t from, Visit&& visit) {
  std::int64_t d = 1;
  for (; d <= n / d; ++d) {
    if (n % d == 0 && d >= from) visit(d);
  }
  for (--d; d >= 1; --d) {
    if (n % d == 0 && n / d != d && n / d >= from) visit(n / d);
  }
}

// The smallest group size auto tries: 2 (a group of one is data parallelism), 1 on 1 GPU.
std::int64_t first_group_size(std::int64_t gpus) {
  return gpus >= 2 ? 2 : 1;
}

// The best prediction over the values `each` offers (set into the configuration by `set`),
// ties to the first (docs/cost-model.md §searched-shapes).
template <class Each, class Set>
void predict_best(const Workload& w, const LayerSums& s, const Config& c, Prediction& out,
                  ComputeMemo* memo, Each&& each, Set&& set) {
  Config x = c;
  Prediction candidate;
  bool first = true;
  each([&](auto value) {
    set(x, value);
    predict_into(w, s, x, first ? out : candidate, memo);
    if (!first && better_shape(candidate, out)) std::swap(out, candidate);
    first = false;
  });
}

// The stages of a pipeline: p (pipeline) or the group size (data+pipeline).
std::int64_t pipeline_stages(const Workload& w, const Config& c) {
  return c.kind == Kind::Pipeline ? c.gpus : detail::group_size(w, c);
}

// Every value auto tried is invalid: none is chosen (0), and the reason, the first value's,
// says so.
void none_chosen(Prediction& out, std::int64_t& chosen, const char* what) {
  if (chosen <= 0) return;  // nothing was searched (a default stood in)
  out.reason = std::string("every ") + what + " tried is invalid; at " + std::to_string(chosen) +
               ": " + out.reason;
  chosen = 0;
}

// Auto's search, one setting at a time (the group size, then the micro-batches of that many
// stages, then the spatial split); false when the configuration searches nothing.
bool predict_searched(const Workload& w, const LayerSums& s, const Config& c, Prediction& out,
                      ComputeMemo* memo) {
  const bool split = c.spatial_split == SpatialSplit::Auto && splits_samples(c.kind);
  const bool p2 = searches_p2(c.kind, c.p2), segments = searches_segments(c.kind, c.segments);
  if (!split && !p2 && !segments) return false;  // the sweep's hot path: nothing to search
  // a point invalid whatever its shape is not searched (nor are 10^18 GPUs' divisors walked)
  if (c.gpus < 1 || c.batch < 1 || c.gpus > w.system.max_gpus || c.batch > w.dataset_samples)
    return false;
  if (p2) {
    // every group size dividing p, from 2 (a group of 1 is data parallelism) to p (one group)
    predict_best(
        w, s, c, out, memo,
        [&](auto visit) { for_each_divisor(c.gpus, first_group_size(c.gpus), visit); },
        [](Config& x, std::int64_t v) { x.p2 = v; });
    if (out.status == Status::Invalid) none_chosen(out, out.p2, "group size");
    return true;
  }
  if (segments) {
    // every micro-batch count dividing a replica's batch; the default where none can
    const std::int64_t stages = pipeline_stages(w, c);
    const std::int64_t replicas = stages >= 1 && c.gpus % stages == 0 ? c.gpus / stages : 0;
    const bool divisible = replicas >= 1 && c.batch >= 1 && c.batch % replicas == 0;
    predict_best(
        w, s, c, out, memo,
        [&](auto visit) {
          if (divisible) {
            for_each_divisor(c.batch / replicas, 1, visit);
          } else {
            visit(std::int64_t{0});
          }
        },
        [](Config& x, std::int64_t v) { x.segments = v; });
    if (divisible && out.status == Status::Invalid)
      none_chosen(out, out.segments, "micro-batch count");
    return true;
  }
  if (split) {
    // W; H and W of a 3-D sample; all (docs/cost-model.md §spatial-split)
    const int rank = w.model.input.rank;
    predict_best(
        w, s, c, out, memo,
        [&](auto visit) {
          visit(SpatialSplit::W);
          if (rank >= 3) visit(SpatialSplit::HW);
          if (spatial_split_dims(SpatialSplit::All, rank) > 1) visit(SpatialSplit::All);
        },
        [](Config& x, SpatialSplit v) { x.spatial_split = v; });
    return true;
  }
  return false;
}

// The shape used: the group size and micro-batches, or 0 where the strategy has none.
void record_shape(const Workload& w, const Config& c, Prediction& out) {
  out.spatial_split = c.spatial_split == SpatialSplit::Auto ? SpatialSplit::W : c.spatial_split;
  out.p2 = has_groups(c.kind) ? detail::group_size(w, c) : 0;
  out.segments = !has_micro_batches(c.kind) ? 0
                 : c.segments > 0           ? c.segments
                                            : pipeline_stages(w, c);
}

}  // namespace

void predict_into(const Workload& w, const LayerSums& s, const Config& c, Prediction& out,
                  ComputeMemo* memo) {
  if (predict_searched(w, s, c, out, memo)) return;
  const bool paradl = c.variant == Variant::Paradl;
  Builder b(w, s, c, out, paradl ? paradl::step(c) : extended::step(c, s));
  record_shape(w, c, out);
  validate(w, c, b);
  // nothing to work out for a configuration already invalid (nor a factorisation of 10^18)
  if (out.status == Status::Invalid) return b.finish();
  if (paradl)
    paradl_strategy(w, c, s, b);
  else
    extended_strategy(w, c, s, b, memo);
  b.finish();
}

void predict_into(const Workload& w, const LayerSums& s, const Config& c, Prediction& out) {
  predict_into(w, s, c, out, nullptr);
}

std::vector<std::int64_t> searched_group_sizes(std::int64_t gpus) {
  std::vector<std::int64_t> out;
  if (gpus >= 1)
    for_each_divisor(gpus, first_group_size(gpus), [&](std::int64_t d) { out.push_back(d); });
  return out;
}

bool recomputes(const Config& c, const LayerSums& s) {
  return c.variant == Variant::Paradise && extended::runs_recomputation(c, s);
}

std::string compute_source(const Workload& w, const Config& c) {
  if (c.variant != Variant::Paradise || !c.policies.roofline_compute) return w.time_source;
  if (w.measured_time)
    return w.time_source + "; a split layer scaled by the roofline's ratio split / whole";
  // the peak used: a GPU without a tf32 or fp16 peak computes at its fp32 one (peak_flops)
  const auto& g = w.system.gpu;
  const bool own = c.precision == Precision::Fp32 ||
                   (c.precision == Precision::Tf32 ? g.peak_tf32_flops : g.peak_fp16_flops) > 0;
  const std::string peak =
      own ? std::string(precision_name(c.precision)) + " peak"
          : "fp32 peak (it has no " + std::string(precision_name(c.precision)) + " one)";
  return "roofline per layer: FLOPs at the GPU's " + peak +
         " x GEMM efficiency, or bytes at its memory bandwidth (no measured time given)";
}

}  // namespace paradise::strategy
