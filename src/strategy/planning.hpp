// Private to the strategy module: what both cost models share before their formulas. The
// validity checks of each strategy (an invalid point is data: Builder::invalid, and the
// function returns false or nullopt), the split planning (pipeline stages, hybrid groups,
// spatial splits) and the geometry of a split tensor.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "builder.hpp"

namespace paradise::strategy::detail {

/// No limit on the parallel layers (a spatial split that stops early passes its last layer).
inline constexpr int kAllLayers = std::numeric_limits<int>::max();
using Parts = std::array<std::int64_t, 3>;  ///< a spatial split's parts per dimension

/// floor((K-1)/2): rows of halo per side (docs/cost-model.md §data-spatial)
inline double halo_rows(const model::LayerStats& l) {
  return l.weight_dims.size() > 2 && l.weight_dims[2] > 0
             // NOLINTNEXTLINE(bugprone-integer-division): whole rows, floor((K-1)/2)
             ? static_cast<double>((l.weight_dims[2] - 1) / 2)
             : 0;
}
/// Whether layer i's backward computes dL/dx (BW_data), so that a split receives dL/dy's
/// halo for it: not a graph layer that reads only the data; a ParaDL chain's but the first.
inline bool computes_input_gradient(const model::ModelStats& m, std::size_t i) {
  return m.saves_inputs_as_own ? i > 0 : m.layers[i].backward_data_flops > 0;
}
/// The largest tile's extent of n split p ways, ceil(n / p), and how many parts hold any of
/// it, ceil(n / tile) (4 split 3 ways: tiles 2, 2, 0, two parts).
inline std::int64_t tile_extent(std::int64_t n, std::int64_t p) {
  return p > 1 ? (n + p - 1) / p : n;
}
inline std::int64_t filled_parts(std::int64_t n, std::int64_t p) {
  const std::int64_t t = tile_extent(n, p);
  return t > 0 ? (n + t - 1) / t : 0;
}
/// The last layer marked parallel, or -1.
int last_active(const Workload& w);
/// Whether layer i is marked parallel and not after a spatial split's last layer `last`.
inline bool marked_split(const Workload& w, std::size_t i, int last) {
  return w.active[i] && static_cast<int>(i) <= last;
}

// --- validity checks ---

/// Serial: exactly one GPU.
bool one_gpu(const Config& c, Builder& b);
/// Data parallelism and DASO: the batch divides evenly among the GPUs.
bool batch_divides_among_gpus(const Config& c, Builder& b);
/// Filter (filter) or channel parallelism: a parallel layer, and no more GPUs than the
/// smallest filter (channel) count of the parallel layers (channel skips the first layer).
bool model_parallel_fits(const Workload& w, const Config& c, Builder& b, bool filter);
/// Data+filter: a parallel layer, and a group no larger than its smallest filter count.
bool data_filter_fits(const Workload& w, const Config& c, Builder& b);

// --- split planning ---

/// The hybrids' group size p2 (Config::p2, default: the GPUs of a node).
std::int64_t group_size(const Workload& w, const Config& c);
/// p = p1 x p2 for the hybrids: p2 GPUs per group, p1 groups that each take batch / p1
/// samples; nullopt (and the point marked invalid) when they do not divide.
std::optional<std::pair<std::int64_t, std::int64_t>> split_groups(const Workload& w,
                                                                  const Config& c, Builder& b);
/// Data+pipeline: the pipeline's stages (Config::p2, default a node's GPUs), which must
/// divide the GPUs; nullopt (and invalid) if not.
std::optional<std::int64_t> data_pipeline_stages(const Workload& w, const Config& c, Builder& b);

/// A pipeline of `stages` GPUs, `replicas` copies each taking batch / replicas samples in
/// `segments` micro-batches, over the model's layers less the input placeholder (`first`).
struct PipelineShape {
  std::int64_t stages = 1, replicas = 1, segments = 1;
  std::size_t first = 0;          ///< 1 if layer 0 is the input placeholder
  double batch = 0;               ///< samples per replica, B / replicas
  std::span<const double> times;  ///< the measured times of the layers from `first`
};
/// The shape, or nullopt (and invalid) when the stages outnumber the layers or the batch
/// does not divide into the replicas' micro-batches.
std::optional<PipelineShape> pipeline_shape(const Workload& w, const Config& c, Builder& b,
                                            std::int64_t stages, std::int64_t replicas);
/// Contiguous partition of layer times into exactly `parts` non-empty groups that minimises
/// the slowest group (bisection on the bottleneck with a greedy fill); returns group ends.
std::vector<std::size_t> balanced_partition(std::span<const double> t, std::size_t parts);

/// A spatial split n ways: its last split layer (-1 and why, if none fits) and its parts per
/// dimension. With the default layer config it stops before the convolutions too narrow to
/// split so many ways (Workload::spatial_prefixes); a layer config is followed as it is.
struct SpatialPlan {
  int last = -1;
  Parts parts{1, 1, 1};
  std::string why_not;
};
/// The split of the first `dims` spatial dimensions (W, then H, then D; spatial_split_dims),
/// of the layers marked parallel or (every_layer) of every layer up to the split.
SpatialPlan plan_spatial_split(const Workload& w, std::int64_t n, int dims, bool every_layer);
/// plan_spatial_split's split recorded in the prediction (Builder::split_at), or the point
/// marked invalid; nullopt then.
std::optional<SpatialPlan> take_spatial_split(const Workload& w, Builder& b, std::int64_t n,
                                              int dims, bool every_layer);

}  // namespace paradise::strategy::detail
