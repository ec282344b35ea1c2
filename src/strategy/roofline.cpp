// Per-layer roofline with the partitioned GEMM's efficiency (docs/cost-model.md §roofline,
// §paradl-findings; Williams et al. 2009 for the roofline).
#include "paradise/strategy/roofline.hpp"

#include <algorithm>

namespace paradise::strategy {

GemmCurve gemm_curve(const system::Gpu& g) {
  return {g.gemm_efficiency_max, g.gemm_half_dim};
}

system::GemmClass gemm_class(const model::LayerStats& l) {
  if (l.op == model::Op::Dense || l.input.rank == 0) return system::GemmClass::Dense;
  if (l.conv3x3_stride1) return system::GemmClass::Conv3x3;
  return l.input.rank == 3 ? system::GemmClass::Conv3d : system::GemmClass::Conv2d;
}

// The precision whose units run: fp32's where the GPU lacks the tensor-core rate (peak_flops)
Precision running_precision(const system::Gpu& g, Precision p) {
  if (p == Precision::Mixed && g.peak_fp16_flops <= 0) return Precision::Fp32;
  if (p == Precision::Tf32 && g.peak_tf32_flops <= 0) return Precision::Fp32;
  return p;
}

GemmCurve gemm_curve(const system::Gpu& g, const model::LayerStats& l, Precision p) {
  const auto index = static_cast<std::size_t>(running_precision(g, p));
  return {g.efficiency_max(gemm_class(l), index), g.gemm_half_dim};
}

// For the implicit GEMM of a convolution, M = samples x output positions, N = filters,
// K = MACs per output = input channels / groups x kernel volume. Few filters or tiny tiles
// starve the tensor cores: a convolution's time "barely changes" with fewer filters
// (docs/cost-model.md §paradl-findings).
double gemm_efficiency(const model::LayerStats& l, double n, double q, GemmSplit split,
                       GemmCurve curve) {
  if (l.macs <= 0 || l.output.channels <= 0 || l.output_elements <= 0) return 0;
  const double out = static_cast<double>(l.output_elements);
  double m = n * out / static_cast<double>(l.output.channels);
  double f = static_cast<double>(l.output.channels);
  double k = static_cast<double>(l.macs) / out;
  switch (split) {
    case GemmSplit::Filters:
      f /= q;
      break;
    case GemmSplit::Channels:
      k /= q;
      break;
    case GemmSplit::Samples:
      m /= q;
      break;
  }
  const double h = curve.half_dim;
  const auto g = [h](double x) { return x / (x + h); };
  return curve.efficiency_max * g(m) * g(f) * g(k);
}

double peak_flops(const system::Gpu& g, Precision p) {
  switch (running_precision(g, p)) {
    case Precision::Mixed:
      return g.peak_fp16_flops;
    case Precision::Tf32:
      return g.peak_tf32_flops;
    case Precision::Fp32:
      break;
  }
  return g.peak_fp32_flops;
}

// Depthwise and grouped convolutions run kernels of their own (docs/gpu-profiles.md §grouped)
double roofline_attainment(const system::Gpu& g, Precision p, const model::LayerStats& l) {
  if (l.groups <= 1) return 1;
  const auto kind =
      l.input.channels == l.groups ? system::GroupedConv::Depthwise : system::GroupedConv::Grouped;
  return g.attainment(kind, static_cast<std::size_t>(running_precision(g, p)));
}

double element_bytes(Precision p) {
  return p == Precision::Mixed ? 2 : 4;
}

double roofline_layer_s(const system::Gpu& g, Precision p, const model::LayerStats& l, double n,
                        double q, GemmSplit split, GemmCurve curve) {
  const double flops = (l.forward_flops + l.backward_data_flops + l.backward_weight_flops) * n / q;
  const double efficiency = gemm_efficiency(l, n, q, split, curve);
  // forward reads x and writes y; backward reads both and writes dL/dx: about 3x, plus the
  // weights and their gradient
  const double bytes =
      element_bytes(p) * (3 * static_cast<double>(l.read_elements + l.written_elements) * n / q +
                          3 * static_cast<double>(l.params) / q);
  const double compute = efficiency > 0 ? flops / (peak_flops(g, p) * efficiency) : 0;
  const double roof =
      std::max(compute, bytes / (g.memory_bandwidth_Bps * g.memory_bandwidth_efficiency));
  return roof / roofline_attainment(g, p, l);
}

}  // namespace paradise::strategy
