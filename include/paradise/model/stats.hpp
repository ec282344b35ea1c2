// Per-layer and per-model statistics of a CNN for one input shape, per sample.
//
// Conventions, used everywhere in ParaDiSE:
//  * A MAC is one multiply-accumulate. FLOPs = 2 x MACs for convolutions and dense
//    layers (plus one add per output for a bias); other layers count one FLOP per
//    element-wise arithmetic operation (documented per op in analyze.cpp).
//  * Everything is per sample; multiply by the batch for a mini-batch.
//  * "Saved" elements are the activations autograd keeps for the backward pass in
//    training mode (the rule per op is in analyze.cpp and docs/models-and-systems.md), counted once
//    per distinct tensor: an in-place ReLU shares its input's buffer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "paradise/model/layer.hpp"
#include "paradise/model/shape.hpp"

namespace paradise::model {

/// Rows beyond a GPU's stride-aligned tile that a windowed layer reads, per spatial
/// dimension, from the neighbour below and the one above (a spatial split's halo).
struct HaloRows {
  std::array<std::int64_t, 3> below{0, 0, 0}, above{0, 0, 0};
  bool any() const {
    for (std::size_t u = 0; u < 3; ++u)
      if (below[u] > 0 || above[u] > 0) return true;
    return false;
  }
};

/// The halos of a convolution or pool with kernel k, stride s, padding p and dilation d,
/// extent e = d (k - 1) + 1 (docs/cost-model.md §spatial-halo with strides): output row o reads x
/// rows o s - p .. o s - p + e - 1, and a GPU computes the rows o whose o s falls in its
/// tile of x. On a tile of a multiple of s rows, the forward pass reads p rows below it and
/// e - s - p above; BW_data, dL/dx's tile from dL/dy, floor((e - 1 - p) / s) rows of dL/dy
/// below and ceil(p / s) above. On other tiles (`x_odd`, `dy_odd`: some tile ends between
/// two of the strided rows) up to e - 1 - p above and ceil((e - 1 - p) / s) below. A
/// transposed convolution is the adjoint, the two swapped (its output tiles always line up).
struct WindowHalos {
  HaloRows x, dy, x_odd, dy_odd;
  std::array<std::int64_t, 3> stride{1, 1, 1};
  /// The rows along dimension u for a tile of x of `tile` rows.
  const HaloRows& x_rows(std::size_t u, std::int64_t tile) const {
    return stride[u] > 1 && tile % stride[u] != 0 ? x_odd : x;
  }
  const HaloRows& dy_rows(std::size_t u, std::int64_t tile) const {
    return stride[u] > 1 && tile % stride[u] != 0 ? dy_odd : dy;
  }
};
WindowHalos window_halos(const Window& w, int rank, bool transposed);

struct LayerStats {
  std::string name;
  Op op = Op::Input;
  Shape input;  ///< first input's shape
  Shape output;
  std::int64_t params = 0;  ///< weights + bias + batch-norm affine
  std::int64_t macs = 0;    ///< forward multiply-accumulates (conv, dense)
  std::int64_t groups = 1;  ///< a convolution's groups (depthwise: its channels)
  /// A 2-D convolution with a 3x3 kernel, stride 1, no dilation and one group: one cuDNN may
  /// run with Winograd's algorithm (docs/gpu-profiles.md §conv3x3).
  bool conv3x3_stride1 = false;
  double forward_flops = 0;          ///< forward floating-point operations
  double backward_data_flops = 0;    ///< gradient with respect to the input
  double backward_weight_flops = 0;  ///< gradient with respect to weights and bias
  std::int64_t input_elements = 0;   ///< all inputs together
  std::int64_t output_elements = 0;
  /// Activation elements that this layer's output adds to the saved-for-backward set
  /// (0 if nobody saves it, or if it aliases an earlier buffer).
  std::int64_t saved_elements = 0;
  /// The layer whose buffer holds this output: itself, or an earlier one for an in-place
  /// activation or a flatten view (their outputs are that buffer, saved there once).
  std::int64_t buffer_layer = 0;
  /// Elements per sample of the tensors made before this layer and read by it or a later
  /// one: what a pipeline cut just before it sends, the skip tensors crossing it included
  /// (docs/cost-model.md §data-pipeline, a_k). A chain's (ParaDL .net file): the layer's input.
  std::int64_t crossing_elements = 0;
  /// The last layer that reads this output (the layer itself when none does): the output
  /// crosses every cut after this layer up to that one. A chain's: the next layer.
  std::int64_t last_reader = 0;
  /// Activation-gradient elements per sample alive while this layer's backward runs under
  /// PyTorch's autograd (autograd_liveness.cpp): its output's gradient, those it makes, and
  /// those made before and not yet consumed (a skip's). 0 where autograd runs no backward.
  /// A chain's (ParaDL .net file): the output's and the input's, but the data's.
  std::int64_t backward_gradient_elements = 0;
  /// Activation-gradient elements alive as this layer's backward begins, before it makes
  /// any: its incoming gradient and those held from before (when a checkpointed segment's
  /// first backward node runs its forward again, autograd_liveness.cpp). A chain's: the
  /// output's.
  std::int64_t pending_gradient_elements = 0;
  /// Saved elements autograd releases once this layer's backward has run: the buffers whose
  /// earliest saver it is (the fixed bytes go with their own layer). A chain's: its own.
  std::int64_t released_elements = 0;
  /// On a buffer's own layer (buffer_layer itself): the first layer, in forward order, that
  /// saves it for the backward pass (the last whose backward needs it); -1 if none does.
  /// A chain's (ParaDL .net file): the layer itself, which keeps its input.
  std::int64_t first_saver = -1;
  /// Saved bytes independent of the activation precision: int64 max-pool indices
  /// (8 B per output element) and dropout masks (1 B per element).
  std::int64_t saved_fixed_bytes = 0;
  /// Memory traffic of the forward kernel, in elements: inputs read and outputs written
  /// (weights are separate: `params`). For a roofline.
  std::int64_t read_elements = 0;
  std::int64_t written_elements = 0;
  /// ParaDL .net files only: measured forward+backward seconds per sample (docs/cost-model.md
  /// §paradl-compute).
  double measured_time_s = 0;
  /// ParaDL .net files only: the weight dimensions as written [C, F, K...].
  std::vector<std::int64_t> weight_dims;
  /// Convolutions and pools: the halos a spatial split exchanges (window_halos; a ParaDL
  /// .net file's from K and the shapes: stride x / y rounded, the padding that gives y).
  WindowHalos halos;
};

/// The most seconds per sample a measured time (a layer's, or a whole model's) may be: far
/// above any real one, and every sum over an epoch stays finite (1e308 gave inf).
inline constexpr double kMaxMeasuredSecondsPerSample = 1e6;

struct ModelStats {
  std::string name;
  Shape input;
  std::vector<LayerStats> layers;
  /// Who reads each layer's output, ascending: readers[reader_begin[i] .. reader_begin[i + 1])
  /// (a chain's: the next layer). Recomputation's checkpoints live while a reader's segment
  /// has still to run its backward pass (strategy/memory/recompute.cpp).
  std::vector<std::int32_t> reader_begin, readers;
  /// Who saves each buffer for the backward pass, ascending, on its owner's index
  /// (LayerStats::buffer_layer): savers[saver_begin[b] .. saver_begin[b + 1]), the first
  /// LayerStats::first_saver. A chain's (ParaDL .net file): layer b's output is saved by
  /// the next layer when it keeps its input (whose first_saver is itself: its input). A
  /// buffer read by a later segment that runs without recomputation lives until one of its
  /// savers there has run its backward pass (strategy/memory/recompute.cpp).
  std::vector<std::int32_t> saver_begin, savers;
  /// ParaDL .net chains (summary_network2's convention): a layer's saved_elements are its
  /// input's, the previous layer's output (the data's for the first), kept by the layer.
  bool saves_inputs_as_own = false;

  std::int64_t params() const;
  std::int64_t macs() const;
  double forward_flops() const;
  double backward_flops() const;
  std::int64_t saved_elements() const;
  /// Saved-for-backward bytes per sample with `activation_bytes` per element (4 = fp32).
  std::int64_t saved_bytes_per_sample(int activation_bytes) const;
};

class Graph;

/// Shape inference and per-layer statistics for `input`. Throws InputError naming
/// the layer when the input is of the wrong rank or too small for the model.
ModelStats analyze(const Graph& graph, const Shape& input);

}  // namespace paradise::model
