// The extended model's fixed costs: the kernels an eager PyTorch training step launches per
// layer and per optimizer step (docs/gpu-profiles.md §fixed-costs). Each launch costs the GPU's
// kernel_launch_s of host time, so a layer never runs faster than its kernels can be issued.
#pragma once

#include "paradise/model/stats.hpp"
#include "paradise/strategy/config.hpp"

namespace paradise::strategy {

/// Kernels of one layer's forward and backward pass (forward, backward-data,
/// backward-weight; cuDNN/cuBLAS calls as PyTorch issues them), the autocast weight casts
/// of mixed precision included.
int layer_kernels(const model::LayerStats& l, Precision p);

/// Kernels of one optimizer step over the model's parameter tensors and elements (Workload
/// counts them once) with PyTorch's default multi-tensor ("foreach") implementation, plus the
/// gradient scaler's under mixed precision.
int optimizer_kernels(double tensors, double elements, Optimizer o, Precision p);

/// Parameter tensors of a layer (weight, bias, a normalisation's scale and shift).
int parameter_tensors(const model::LayerStats& l);

}  // namespace paradise::strategy
