// The extended model's compute (docs/cost-model.md §roofline): per layer, the roofline of its
// kernels after partitioning with the GEMM efficiency of their dimensions, scaled to the measured
// time where there is one; and the step's recomputation.
#include <algorithm>

#include "../memory/memory.hpp"
#include "extended.hpp"
#include "paradise/strategy/kernels.hpp"
#include "paradise/strategy/roofline.hpp"

namespace paradise::strategy::extended {
namespace {

GemmSplit gemm_split(const Config& c) {
  switch (c.kind) {
    case Kind::Filter:
    case Kind::DataFilter:
      return GemmSplit::Filters;
    case Kind::Channel:
      return GemmSplit::Channels;
    default:
      return GemmSplit::Samples;
  }
}

double roofline_s(const Workload& w, const Config& c, const model::LayerStats& l, double n,
                  double q) {
  return roofline_layer_s(w.system.gpu, c.precision, l, n, q, gemm_split(c),
                          gemm_curve(w.system.gpu, l, c.precision));
}

// The host time to issue a layer's kernels: eager execution never runs a layer faster
// (docs/gpu-profiles.md §fixed-costs).
double launch_floor_s(const Workload& w, const Config& c, const model::LayerStats& l) {
  return layer_kernels(l, c.precision) * w.system.gpu.kernel_launch_s;
}

}  // namespace

Builder::Step step(const Config& c, const LayerSums& s) {
  const double d = c.precision == Precision::Mixed ? 2 : static_cast<double>(c.activation_bytes);
  // activation recomputation: the forward pass of the layers before the last segment runs
  // again in the backward pass (Chen et al. 2016); a pipeline stage re-materialises its
  // whole forward pass per micro-batch (GPipe, docs/cost-model.md §pipeline)
  const double forward = 1 - s.backward_share;
  const bool pipeline = c.kind == Kind::Pipeline || c.kind == Kind::DataPipeline;
  const double again = pipeline ? (c.recompute_activations ? forward : 0)
                       : runs_recomputation(c, s)
                           ? forward * s.recompute_forward_share[element_size_index(d)]
                           : 0;
  return {d, again};
}

double element_bytes(const Config& c) {
  return strategy::element_bytes(c.precision);
}

bool splits_every_layer(const Config& c) {
  const bool spatial = c.kind == Kind::Spatial || c.kind == Kind::DataSpatial;
  return spatial && c.policies.split_whole_prefix;
}

double layer_s(const Workload& w, const Config& c, std::size_t i, double n, double q, int last) {
  const double split = runs_split(w, c, i, last) ? q : 1;
  // the implementation's split kernels reach split_efficiency of the unsplit roofline's rate
  if (split > 1) return layer_split_s(w, c, i, n, split) / c.implementation.split_efficiency;
  return layer_split_s(w, c, i, n, 1);
}

double layer_split_s(const Workload& w, const Config& c, std::size_t i, double n, double split) {
  const double measured = w.layer_time_s[i] * n;  // ParaDL's (docs/cost-model.md §paradl-compute)
  if (!c.policies.roofline_compute) return measured / split;
  if (w.measured_time && split == 1) return measured;  // the roofline's ratio is 1
  const auto& l = w.model.layers[i];
  const double r = roofline_s(w, c, l, n, split);
  if (!w.measured_time) return std::max(r, launch_floor_s(w, c, l));
  // scaled to the measurement: the roofline's ratio split / unsplit applied to it
  const double whole = roofline_s(w, c, l, n, 1);
  return whole > 0 ? measured * r / whole : measured / split;
}

double compute_s(const Workload& w, const Config& c, ComputeMemo* memo, double samples, double call,
                 double q, int last) {
  if (samples <= 0 || call <= 0) return 0;
  // the split only matters through the GEMM dimension it divides (gemm_efficiency)
  const auto split =
      static_cast<std::uint8_t>(q == 1                                                 ? 0
                                : c.kind == Kind::Filter || c.kind == Kind::DataFilter ? 1
                                : c.kind == Kind::Channel                              ? 2
                                                                                       : 3);
  const ComputeMemo::Key key{
      call, q, c.implementation.split_efficiency, split, static_cast<std::uint8_t>(c.precision),
      last};
  // the optimizer step's kernels, issued once per iteration (a measurement holds them); apart
  // from the memo, whose key has no optimizer
  const double step =
      c.policies.roofline_compute && !w.measured_time
          ? optimizer_kernels(w.parameter_tensors, w.parameter_elements, c.optimizer, c.precision) *
                w.system.gpu.kernel_launch_s
          : 0;
  if (memo) {
    if (const double* t = memo->find(key)) return samples / call * (*t + step);
  }
  double t = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) t += layer_s(w, c, i, call, q, last);
  if (memo) memo->put(key, t);
  return samples / call * (t + step);
}

}  // namespace paradise::strategy::extended
