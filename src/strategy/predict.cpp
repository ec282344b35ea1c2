// The oracle: validates a configuration, then dispatches on (strategy, cost model) to
// ParaDL's formulas (paradl/, Kahira et al.; TR Table III) or the extended model's
// (extended/, its memory account in memory/). Both fill one Builder (builder.hpp).
#include "paradise/strategy/predict.hpp"

#include <string>
#include <utility>

#include "extended/extended.hpp"
#include "memory/memory.hpp"
#include "paradl/paradl.hpp"

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
bool better_split(const Prediction& a, const Prediction& b) {
  if (a.status != b.status) return a.status < b.status;
  if (a.status == Status::Ok && a.epoch_time_s != b.epoch_time_s)
    return a.epoch_time_s < b.epoch_time_s;
  return a.status != Status::Invalid && a.memory_per_gpu_bytes < b.memory_per_gpu_bytes;
}

// SpatialSplit::Auto: each split of the sample's dimensions (W; H and W of a 3-D sample;
// all), the best kept, ties to the first (docs/cost-model.md §spatial-split).
void predict_best_split(const Workload& w, const LayerSums& s, const Config& c, Prediction& out,
                        ComputeMemo* memo) {
  const int rank = w.model.input.rank;
  Config x = c;
  Prediction candidate;
  bool first = true;
  for (const auto split : {SpatialSplit::W, SpatialSplit::HW, SpatialSplit::All}) {
    if (split != SpatialSplit::W && spatial_split_dims(split, rank) <= 1) continue;
    if (split == SpatialSplit::HW && rank < 3) continue;  // a 2-D sample's HW is all of it
    x.spatial_split = split;
    predict_into(w, s, x, first ? out : candidate, memo);
    if (!first && better_split(candidate, out)) std::swap(out, candidate);
    first = false;
  }
}

}  // namespace

void predict_into(const Workload& w, const LayerSums& s, const Config& c, Prediction& out,
                  ComputeMemo* memo) {
  if (c.spatial_split == SpatialSplit::Auto &&
      (c.kind == Kind::Spatial || c.kind == Kind::DataSpatial))
    return predict_best_split(w, s, c, out, memo);
  const bool paradl = c.variant == Variant::Paradl;
  Builder b(w, s, c, out, paradl ? paradl::step(c) : extended::step(c, s));
  // Auto on a strategy without a spatial split: nothing to choose
  out.spatial_split = c.spatial_split == SpatialSplit::Auto ? SpatialSplit::W : c.spatial_split;
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
