// The paradise variant's per-layer compute time: a roofline with the efficiency of the
// layer's implicit GEMM after partitioning (docs/cost-model.md §roofline; Williams et al. 2009).
// Public so that `paradise calibrate` fits the efficiency curve with the formula predict uses.
#pragma once

#include <cstdint>

#include "paradise/model/stats.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/system/system.hpp"

namespace paradise::strategy {

/// The implicit-GEMM dimension a partitioning divides: M = samples x output positions
/// (data, spatial), N = filters (filter), K = input channels x kernel volume (channel).
enum class GemmSplit : std::uint8_t { Samples, Filters, Channels };

/// e_max x g(M) g(N) g(K), g(x) = x / (x + h): a dimension of h runs at half speed.
struct GemmCurve {
  double efficiency_max = 0.8;
  double half_dim = 32;
};
GemmCurve gemm_curve(const system::Gpu& g);
/// The kernel class of a layer's GEMM: dense, or a convolution by its spatial rank.
system::GemmClass gemm_class(const model::LayerStats& l);
/// The curve of layer l's kernel class at precision p (Gpu::efficiency_max; the shared
/// half dimension).
GemmCurve gemm_curve(const system::Gpu& g, const model::LayerStats& l, Precision p);

/// The GEMM efficiency of layer l for n samples with the dimension `split` divided q ways;
/// 0 for a layer without a GEMM (no MACs).
double gemm_efficiency(const model::LayerStats& l, double n, double q, GemmSplit split,
                       GemmCurve curve);

/// Peak FLOP/s of the precision (fp32 where the GPU lacks the tensor-core rate).
double peak_flops(const system::Gpu& g, Precision p);
/// The precision whose units run p: fp32's where the GPU lacks p's tensor-core rate.
Precision running_precision(const system::Gpu& g, Precision p);
/// The share of its roofline layer l's kernels reach: a grouped convolution's
/// (Gpu::attainment at the running precision), else 1.
double roofline_attainment(const system::Gpu& g, Precision p, const model::LayerStats& l);
/// Bytes per activation / weight / gradient element (2 for mixed precision).
double element_bytes(Precision p);

/// Seconds of layer l's forward and backward pass for n samples, split q ways:
/// max(FLOPs / (peak x efficiency), bytes / (memory bandwidth x its achievable share)),
/// over the layer's roofline attainment.
double roofline_layer_s(const system::Gpu& g, Precision p, const model::LayerStats& l, double n,
                        double q, GemmSplit split, GemmCurve curve);

}  // namespace paradise::strategy
