// What PyTorch's autograd holds while each layer's backward runs: the activation gradients
// alive then, and the saved activations it releases once that layer's backward has run.
#pragma once

#include <vector>

#include "paradise/model/graph.hpp"
#include "paradise/model/stats.hpp"

namespace paradise::model {

/// Sets LayerStats::backward_gradient_elements, pending_gradient_elements and
/// released_elements of `m` (already analysed: shapes, saved_elements). `needs_grad[i]`:
/// layer i's output requires a gradient;
/// `first_saver[b]`: the lowest index of a layer saving buffer b for backward (-1: none).
void autograd_liveness(const Graph& g, const std::vector<bool>& needs_grad,
                       const std::vector<int>& first_saver, ModelStats& m);

}  // namespace paradise::model
