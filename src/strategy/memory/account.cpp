// The extended model's memory per GPU by component (docs/cost-model.md §memory): saved
// activations (autograd's rule per layer; with recomputation, Chen et al. 2016, checkpoints
// and one segment), activation gradients at the backward pass's peak, model state,
// workspace, communication buffers, runtime context.
#include <algorithm>
#include <cmath>

#include "../extended/extended.hpp"
#include "memory.hpp"
#include "state.hpp"

namespace paradise::strategy::extended {
namespace {

// Per sample, the saved activations' bytes and the activation gradients' beyond them.
struct ActivationBytes {
  double saved = 0, gradients = 0;
};

ActivationBytes activation_bytes(const LayerSums& s, const Config& c, bool recompute,
                                 const std::optional<GradientPeak>& stage,
                                 const TileActivations* tile) {
  const double e = element_bytes(c);
  const std::size_t at = element_size_index(e);
  // under a spatial split with recomputation: the whole model's plan, scaled by the tile's
  // share of its saved activations (the plan is not made again per tile; docs/cost-model.md
  // §split-memory)
  const double share = tile && s.saved > 0 ? tile->saved / s.saved : 1;
  ActivationBytes a;
  a.saved = recompute ? share * (s.recompute_saved[at] * e + s.recompute_saved_fixed_bytes[at])
            : tile    ? tile->saved * e + tile->saved_fixed_bytes
                      : s.saved * e + s.saved_fixed_bytes;
  // those alive at the backward pass's peak beyond the saved activations autograd has
  // released by then (docs/cost-model.md §memory: not the sum over layers; with recomputation,
  // segment by segment), or all of them kept (TensorFlow's tape); a pipeline stage's own peak for
  // its one micro-batch in the backward pass
  const double kept =
      e * (tile ? std::max(tile->largest_pair, tile->outputs + tile->largest_in_place)
                : std::max(s.largest_pair, s.outputs + s.largest_in_place));
  a.gradients = !c.policies.free_activation_gradients ? kept
                : stage                               ? stage->bytes_per_sample
                : recompute                           ? share * s.recompute_gradient_peak_bytes[at]
                : tile                                ? tile->gradient_peak_bytes
                                                      : s.gradient_peak_bytes[at];
  return a;
}

}  // namespace

bool runs_recomputation(const Config& c, const LayerSums& s) {
  return c.recompute_activations && (!c.policies.recompute_only_if_lower ||
                                     s.recompute_lowers_peak[element_size_index(element_bytes(c))]);
}

void memory_account(detail::Builder& b, const LayerSums& s, const Config& c,
                    double activation_samples, double local_params, std::int64_t data_parallel,
                    std::optional<GradientPeak> stage, const TileActivations* tile) {
  const auto& pol = c.policies;
  // a GPU holds whole bytes: a share that comes out fractional (a spatial split's tiles, a
  // filter split's or a ZeRO shard's parameters) is rounded up, component by component
  const auto memory = [&b](const char* what, double bytes) { b.memory(what, std::ceil(bytes)); };
  const auto per_param = state_bytes_per_param(c, data_parallel);
  // a pipeline stage recomputes its own forward pass whenever asked (pipeline.cpp)
  const bool recompute = stage ? c.recompute_activations : runs_recomputation(c, s);
  const auto a = activation_bytes(s, c, recompute, stage, tile);
  memory(recompute ? "saved activations (checkpoints + one recomputed segment)"
                   : "saved activations (autograd)",
         activation_samples * a.saved);
  if (tile && !recompute)
    memory("halos of the split layers' inputs", activation_samples * tile->halo * element_bytes(c));
  memory("activation gradients", (stage ? stage->samples : activation_samples) * a.gradients);
  memory("weights", local_params * per_param.weights);
  memory("gradients", local_params * per_param.gradients);
  memory("optimizer state", local_params * per_param.optimizer);
  memory("convolution workspace", pol.workspace_bytes);
  // NCCL's buffers only where there is a communicator (one GPU has none)
  memory("communication buffers",
         (c.gpus > 1 ? pol.comm_buffer_bytes : 0) + local_params * per_param.bucket);
  memory("runtime context", pol.context_bytes);
}

}  // namespace paradise::strategy::extended
