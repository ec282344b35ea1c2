// Private to the strategy module: the extended model's memory account per GPU (docs/cost-model.md
// §memory): the model state (state.cpp), the activations and their gradients (account.cpp), under a
// spatial split (split_memory.cpp), with activation recomputation (recompute.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "../builder.hpp"
#include "../planning.hpp"

namespace paradise::strategy::extended {

/// Whether the step recomputes: asked for (Training::recompute_activations), and its plan
/// lowers the step's peak or Policies::recompute_only_if_lower is off.
bool runs_recomputation(const Config& c, const LayerSums& s);

/// The model state's bytes on one GPU for `local_params` parameters: weights, gradients,
/// optimizer state and the gradient bucket copy, as memory_account counts them.
double model_state_bytes(const Config& c, double local_params, std::int64_t data_parallel);

/// A pipeline stage's activation gradients: one micro-batch of `samples` in its backward
/// pass, `bytes_per_sample` at the stage's own peak beyond its saved activations (released
/// as it goes, recomputed or not).
struct GradientPeak {
  double samples = 0, bytes_per_sample = 0;
};
/// Per sample, one GPU's activations under a spatial split into `parts` up to layer `last`
/// (split_memory.cpp): each split layer's tensors as the largest tile, those a layer after
/// the split saves whole; the split layers' x halos, saved, and dL/dy halos, transient in
/// BW_data (Policies::spatial_halo_memory); released in autograd's order.
struct TileActivations {
  double saved = 0, saved_fixed_bytes = 0;  ///< tiles: elements, fixed bytes (as LayerSums)
  double halo = 0;                          ///< x halos' elements, saved
  double gradient_peak_bytes = 0;           ///< beyond saved + halo at the Config's element size
  double largest_pair = 0, outputs = 0, largest_in_place = 0;  ///< as LayerSums, tiled
};
TileActivations tile_activations(const Workload& w, const Config& c, const detail::Parts& parts,
                                 int last);
/// Memory by component: activations of `activation_samples` samples, model state of
/// `local_params` parameters (sharded over `data_parallel` replicas per the ZeRO stage),
/// workspace, communication buffers, context. The activation gradients are the whole
/// model's at the activations' samples, or a pipeline stage's (`stage`); under a spatial
/// split (`tile`) one GPU's tiles and halos.
void memory_account(detail::Builder& b, const LayerSums& s, const Config& c,
                    double activation_samples, double local_params, std::int64_t data_parallel,
                    std::optional<GradientPeak> stage = std::nullopt,
                    const TileActivations* tile = nullptr);

}  // namespace paradise::strategy::extended
