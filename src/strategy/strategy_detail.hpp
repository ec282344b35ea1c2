// Private to the strategy module: per-epoch accounting shared by the strategy formulas.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "paradise/core/table.hpp"
#include "paradise/cost/overlap.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy::detail {

using model::Op;

using Totals = LayerSums;

class Builder {
 public:
  /// Resets `out` (keeping its vectors' capacity: no allocation per point in a sweep).
  Builder(const Workload& w, const LayerSums& s, const Config& c, Prediction& out)
      : w_(w),
        d_(c.variant == Variant::Paradise && c.precision == Precision::Mixed
               ? 2
               : static_cast<double>(c.activation_bytes)),
        p_(out) {
    // activation recomputation: the forward pass of the layers before the last segment runs
    // again in the backward pass (Chen et al. 2016); a pipeline stage re-materialises its
    // whole forward pass per micro-batch (GPipe, cost-model-notes §6.1)
    const double forward = 1 - s.backward_share;
    const bool pipeline = c.kind == Kind::Pipeline || c.kind == Kind::DataPipeline;
    const double again =
        pipeline
            ? (c.variant == Variant::Paradise && c.policies.recompute_activations ? forward : 0)
        : recomputes(c, s) ? forward * s.recompute_forward_share[element_size_index(d_)]
                           : 0;
    scale_ = 1 + again;
    backward_share_ = (s.backward_share + again) / scale_;
    p_.status = Status::Ok;
    p_.reason.clear();
    p_.limit = Limit::None;
    p_.communication.clear();
    p_.memory.clear();
    p_.epoch_compute_s = p_.epoch_communication_s = p_.epoch_time_s = p_.iteration_time_s = 0;
    p_.epoch_overlapped_s = 0;
    p_.memory_per_gpu_bytes = 0;
    p_.split_layer = -1;
    p_.split_parts = {1, 1, 1};
    // ceil(D / B) without overflow for huge B
    p_.iterations_per_epoch =
        c.batch > 0 ? w.dataset_samples / c.batch + (w.dataset_samples % c.batch != 0 ? 1 : 0) : 0;
  }
  double iterations() const { return static_cast<double>(p_.iterations_per_epoch); }
  double delta() const { return d_; }
  void invalid(std::string reason) {
    if (p_.status == Status::Ok) {
      p_.status = Status::Invalid;
      p_.reason = std::move(reason);
    }
  }
  /// Forward + backward seconds per epoch, before any recomputation (added here), worth
  /// `full_iterations` iterations of the whole batch: D / B where the last, partial batch is
  /// charged by its samples, ceil(D / B) where every iteration is charged whole.
  void compute(double epoch_s, double full_iterations) {
    p_.epoch_compute_s = epoch_s * scale_;
    full_iterations_ = full_iterations;
  }
  /// The compute of one iteration of the whole batch (not the epoch's mean, which a partial
  /// last batch lowers).
  double iteration_compute_s() const {
    return full_iterations_ > 0 ? p_.epoch_compute_s / full_iterations_ : 0;
  }
  /// The backward pass's share of compute_s(), recomputed forward passes included.
  double backward_share() const { return backward_share_; }
  double compute_s() const { return p_.epoch_compute_s; }
  // Names must be static strings (literals): parts keep views of them.
  void comm(std::string_view name, std::string_view collective, std::string_view phase,
            std::int64_t gpus, double per_iteration_s) {
    p_.communication.push_back({name, collective, phase, gpus, per_iteration_s * iterations()});
  }
  void memory(std::string_view name, double bytes) { p_.memory.push_back({name, bytes}); }
  /// The last layer a spatial strategy splits (its parallel layers stop there) and the parts
  /// along each spatial dimension.
  void split_at(int layer, const std::array<std::int64_t, 3>& parts) {
    p_.split_layer = layer;
    p_.split_parts = parts;
  }
  /// Communication hidden behind compute (per iteration): counted in its part, not in time.
  void overlapped(double per_iteration_s) {
    p_.epoch_overlapped_s += per_iteration_s * iterations();
  }
  void finish() {
    if (p_.status == Status::Invalid) {
      // a configuration that cannot run has no time or memory: NaN (missing), no parts
      constexpr double none = std::numeric_limits<double>::quiet_NaN();
      p_.communication.clear();
      p_.memory.clear();
      p_.split_layer = -1;
      p_.split_parts = {1, 1, 1};
      p_.epoch_compute_s = p_.epoch_communication_s = p_.epoch_overlapped_s = none;
      p_.epoch_time_s = p_.iteration_time_s = p_.memory_per_gpu_bytes = none;
      p_.limit = Limit::None;
      return;
    }
    for (const auto& c : p_.communication) p_.epoch_communication_s += c.epoch_s;
    for (const auto& m : p_.memory) p_.memory_per_gpu_bytes += m.bytes;
    // ParaDL: no overlap (TR §IV-B); the paradise variant hides some communication
    p_.epoch_time_s = p_.epoch_compute_s + p_.epoch_communication_s - p_.epoch_overlapped_s;
    // one iteration of the whole batch: its compute, and the communication every one pays
    p_.iteration_time_s =
        p_.iterations_per_epoch > 0
            ? iteration_compute_s() +
                  (p_.epoch_communication_s - p_.epoch_overlapped_s) / iterations()
            : 0;
    const double capacity = w_.system.usable_memory_bytes();
    if (p_.status == Status::Ok && p_.memory_per_gpu_bytes > capacity) {
      p_.status = Status::OutOfMemory;
      // usable: device memory less the system's margin (what `paradise systems` lists)
      p_.reason = "needs " + human_bytes(p_.memory_per_gpu_bytes) + " per GPU, the GPU has " +
                  human_bytes(capacity) + " usable";
    }
    const double exposed = p_.epoch_communication_s - p_.epoch_overlapped_s;
    p_.limit = p_.status == Status::OutOfMemory ? Limit::Memory
               : exposed > p_.epoch_compute_s   ? Limit::Communication
                                                : Limit::Compute;
  }

 private:
  const Workload& w_;
  double d_;
  double scale_ = 1, backward_share_ = 0;
  double full_iterations_ = 0;
  Prediction& p_;
};

void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void daso(const Workload& w, const Config& c, const Totals& s, Builder& b);

// The paradise variant's policies (paradise_policies.cpp).
inline bool paradise(const Config& c) {
  return c.variant == Variant::Paradise;
}
/// Bytes per activation, weight and gradient element: 2 for mixed precision, else 4.
double element_bytes(const Config& c);
/// No limit on the parallel layers (a spatial split that stops early passes its last layer).
inline constexpr int kAllLayers = std::numeric_limits<int>::max();
/// Whether layer i runs split: marked parallel and not after `last`; with the paradise
/// variant's spatial strategies every layer up to `last` (Policies::split_whole_prefix).
inline bool splits_every_layer(const Config& c) {
  const bool spatial = c.kind == Kind::Spatial || c.kind == Kind::DataSpatial;
  return paradise(c) && spatial && c.policies.split_whole_prefix;
}
/// floor((K-1)/2): rows of halo per side (cost-model-notes §1.4.2)
inline double halo_rows(const model::LayerStats& l) {
  return l.weight_dims.size() > 2 && l.weight_dims[2] > 0
             ? static_cast<double>((l.weight_dims[2] - 1) / 2)
             : 0;
}
/// Whether layer i's backward computes dL/dx (BW_data), so that a split receives dL/dy's
/// halo for it: not a graph layer that reads only the data; a ParaDL chain's but the first.
inline bool computes_input_gradient(const model::ModelStats& m, std::size_t i) {
  return m.saves_inputs_as_own ? i > 0 : m.layers[i].backward_data_flops > 0;
}
using Parts = std::array<std::int64_t, 3>;  ///< a spatial split's parts per dimension
/// The largest tile's extent of n split p ways, ceil(n / p), and how many parts hold any of
/// it, ceil(n / tile) (4 split 3 ways: tiles 2, 2, 0, two parts).
inline std::int64_t tile_extent(std::int64_t n, std::int64_t p) {
  return p > 1 ? (n + p - 1) / p : n;
}
inline std::int64_t filled_parts(std::int64_t n, std::int64_t p) {
  const std::int64_t t = tile_extent(n, p);
  return t > 0 ? (n + t - 1) / t : 0;
}
inline bool runs_split(const Workload& w, const Config& c, std::size_t i, int last) {
  return static_cast<int>(i) <= last && (w.active[i] || splits_every_layer(c));
}
/// Elements per sample the paradise variant's allgather after the split layer `split`
/// gathers: every tensor made up to it and read after it (LayerStats::crossing_elements):
/// its output and the skips across it, a residual block's input, U-Net's encoder features
/// for the decoder. None when nothing follows it (the loss computed split).
inline double gathered_after_split(const Workload& w, int split) {
  const auto next = static_cast<std::size_t>(split) + 1;
  return next < w.model.layers.size() ? static_cast<double>(w.model.layers[next].crossing_elements)
                                      : 0.0;
}
/// Seconds of layer i for n samples on one GPU, its work split q ways if it runs split
/// (runs_split).
double paradise_layer_s(const Workload& w, const Config& c, std::size_t i, double n, double q,
                        int last = kAllLayers);
/// Seconds per epoch of every layer for `samples` samples per GPU in kernels of `call`
/// samples, the parallel layers (up to `last`) split q ways.
double paradise_compute(const Workload& w, const Config& c, double samples, double call, double q,
                        int last = kAllLayers);
struct GradientExchange {
  double seconds = 0;
  std::string_view label;  ///< static string
};
/// The link of a communicator spanning `span` consecutive GPUs: the worst pair's level, its
/// bandwidth (one network adapter's) divided by the level's over-subscription; across nodes
/// a flat communicator (flows = 0: every GPU of each node) uses all the node's adapters,
/// while `flows` concurrent communicators of one GPU per node share them (the principled
/// form of ParaDL's contention divisors; cost-model-notes §1.6.3, §5.3).
system::Link paradise_link(const Workload& w, std::int64_t span, std::int64_t flows);
/// The allreduce NCCL would pick (ring, double binary tree, two-level) among p GPUs
/// spanning `span` GPUs, with `flows` as for paradise_link.
GradientExchange paradise_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                    std::int64_t span, double bytes, std::int64_t flows);
/// A hybrid's gradient exchange across p1 groups of p2 GPUs, each GPU holding a shard of
/// shard_bytes: p2 concurrent allreduces, or (policy leader_reduce) reduce to one GPU per
/// group, allreduce among the leaders, broadcast.
GradientExchange cross_group_exchange(const Workload& w, const Config& c, std::int64_t p1,
                                      std::int64_t p2, double shard_bytes);
/// Per-iteration seconds of the per-layer collectives of filter or channel parallelism over
/// q GPUs on consecutive GPUs, for `samples` samples per iteration.
struct LayerCollectives {
  double gather_s = 0;  ///< allgather ring (NCCL's allgather; filter: y forward, channel: dL/dy)
  double reduce_s = 0;  ///< partial sums (filter: dL/dx backward, channel: y forward)
  std::string_view reduce_label;  ///< static string
};
LayerCollectives paradise_layer_collectives(const Workload& w, const Config& c, std::int64_t q,
                                            double samples, bool filter);
struct GradientOverlap {
  double total_s = 0, exposed_s = 0;  ///< per iteration
  std::string_view label;
};
/// A gradient exchange of gradient_bytes in buckets (policy bucket_bytes), each bucket's
/// exchange given by `exchange(bytes) -> GradientExchange`, overlapped with a backward pass
/// of backward_s seconds that follows forward_s seconds of forward pass (per iteration);
/// blocking when the policy is off. `ready`: when each layer's gradients are ready
/// (LayerSums::gradient_ready); empty: evenly through the backward pass.
template <class Exchange>
GradientOverlap overlapped_exchange(const Config& c, double gradient_bytes, double forward_s,
                                    double backward_s, const Exchange& exchange,
                                    std::span<const cost::GradientReady> ready = {}) {
  if (!c.policies.overlap_gradients || gradient_bytes <= 0) {
    const GradientExchange x = exchange(gradient_bytes);
    return {x.seconds, x.seconds, x.label};
  }
  if (!ready.empty()) {  // per layer, DDP's buckets (cost-model-notes §3)
    const auto x = cost::per_layer_buckets(ready, gradient_bytes, c.policies.bucket_bytes,
                                           forward_s, backward_s, exchange);
    double exposed = std::clamp(x.finish_s - (forward_s + backward_s), 0.0, x.total_s);
    if (x.total_s - exposed <= 1e-9 * x.total_s) exposed = x.total_s;  // rounding, not overlap
    return {x.total_s, exposed, x.label};
  }
  // Buckets of bucket_bytes become ready evenly through the backward pass and are reduced
  // one after another (Barrachina et al.'s per-layer overlap, cost-model-notes §3, with
  // DDP's buckets): exposed = what runs past the end of the backward pass.
  const double k = std::max(1.0, std::ceil(gradient_bytes / c.policies.bucket_bytes));
  const GradientExchange bucket = exchange(gradient_bytes / k);
  // closed form (a loop over the buckets never ended for 10^16 of them)
  const double finish = cost::bucketed_finish_s(forward_s, backward_s, k, bucket.seconds);
  const double total = k * bucket.seconds;
  double exposed = std::clamp(finish - (forward_s + backward_s), 0.0, total);
  if (total - exposed <= 1e-9 * total) exposed = total;  // rounding (1e-14 s), not overlap
  return {total, exposed, bucket.label};
}
/// Bucketed gradient allreduce overlapped with a backward pass of backward_s seconds that
/// follows forward_s seconds of forward pass (per iteration).
GradientOverlap overlapped_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                     double gradient_bytes, double forward_s, double backward_s,
                                     std::span<const cost::GradientReady> ready = {});
/// ZeRO-3's price for sharding the weights over `data_parallel` replicas (Rajbhandari et al.
/// 2020, §7.2.2): one more allgather of the `local_params` parameters per iteration, over
/// `link`, the link of the strategy's own gradient exchange. Nothing below ZeRO-3 or
/// without replicas.
void zero3_parameter_allgather(Builder& b, const Config& c, double local_params,
                               std::int64_t data_parallel, const system::Link& link);
/// The model state's bytes on one GPU for `local_params` parameters: weights, gradients,
/// optimizer state and the gradient bucket copy, as paradise_memory counts them.
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
TileActivations tile_activations(const Workload& w, const Config& c, const Parts& parts, int last);
/// Memory by component: activations of `activation_samples` samples, model state of
/// `local_params` parameters (sharded over `data_parallel` replicas per the ZeRO stage),
/// workspace, communication buffers, context. The activation gradients are the whole
/// model's at the activations' samples, or a pipeline stage's (`stage`); under a spatial
/// split (`tile`) one GPU's tiles and halos.
void paradise_memory(Builder& b, const LayerSums& s, const Config& c, double activation_samples,
                     double local_params, std::int64_t data_parallel,
                     std::optional<GradientPeak> stage = std::nullopt,
                     const TileActivations* tile = nullptr);

}  // namespace paradise::strategy::detail
