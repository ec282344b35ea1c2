// Private to the strategy module: activation recomputation (Chen et al. 2016), its segment
// plan and the activation memory of a training step run by it (recompute.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "paradise/model/stats.hpp"

namespace paradise::strategy::detail {

/// A step's activation peak per sample under the best of Chen's greedy plans (recompute.cpp:
/// a grid of its budget around round(sqrt L) segments) at one element size: its
/// activations at that peak (elements and fixed bytes) and the gradients beyond them; the
/// forward FLOPs run again over all forward FLOPs; each later segment's first layer.
struct Recomputed {
  double saved = 0, saved_fixed_bytes = 0, gradient_peak_bytes = 0, forward_share = 0;
  std::vector<std::size_t> cuts;
  bool lowers_peak = false;  ///< the step peaks lower than without recomputation
};
/// The plan chosen for each element size: [0] 2 bytes (mixed), [1] 4 bytes.
std::array<Recomputed, 2> recomputed(const model::ModelStats& m);

}  // namespace paradise::strategy::detail
