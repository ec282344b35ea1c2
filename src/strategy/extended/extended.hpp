// Private to the strategy module: the extended cost model (`--variant paradise`;
// docs/cost-model.md §overlap, §nccl, §memory), one file per strategy. Roofline compute with a
// kernel-size efficiency, the allreduce NCCL would pick, gradient buckets overlapped with the
// backward pass, and memory by component (src/strategy/memory/). Its policies
// (Config::policies) switch each part back to ParaDL's rule.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>

#include "../builder.hpp"
#include "../planning.hpp"
#include "paradise/cost/overlap.hpp"
#include "paradise/strategy/compute_memo.hpp"
#include "paradise/system/system.hpp"

namespace paradise::strategy::extended {

using detail::Builder;
using detail::kAllLayers;
using detail::Parts;
using detail::Totals;
using implementation::Exchange;

// The strategies (memo: the caller's compute memo for this workload, or null).
void serial(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo);
void data(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo);
/// Filter (filter = true) or channel parallelism.
void filter_channel(const Workload& w, const Config& c, const Totals& s, Builder& b,
                    ComputeMemo* memo, bool filter);
/// Pipeline parallelism over all the GPUs (data_pipeline.cpp: with replicas).
void pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo);
void data_pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b,
                   ComputeMemo* memo);
void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo);
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b,
                 ComputeMemo* memo);
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b,
                  ComputeMemo* memo);
void daso(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo);
/// Layer parallelism over `stages` GPUs, `replicas` copies of the pipeline (pipeline.cpp).
void pipeline_of(const Workload& w, const Config& c, const Totals& s, Builder& b,
                 std::int64_t stages, std::int64_t replicas);

/// The step the extended model accounts: delta at the training precision, and the forward
/// pass run again by activation recomputation (a pipeline stage's whole forward pass).
Builder::Step step(const Config& c, const LayerSums& s);

// Compute (compute.cpp).

/// Bytes per activation, weight and gradient element: 2 for mixed precision, else 4.
double element_bytes(const Config& c);
/// Whether layer i runs split: marked parallel and not after `last`; with the spatial
/// strategies every layer up to `last` (Policies::split_whole_prefix).
bool splits_every_layer(const Config& c);
inline bool runs_split(const Workload& w, const Config& c, std::size_t i, int last) {
  return static_cast<int>(i) <= last && (w.active[i] || splits_every_layer(c));
}
/// Seconds of layer i for n samples on one GPU, its work split q ways if it runs split.
double layer_s(const Workload& w, const Config& c, std::size_t i, double n, double q,
               int last = kAllLayers);
/// layer_s for a layer split `split` ways (1: whole), before the implementation's efficiency.
double layer_split_s(const Workload& w, const Config& c, std::size_t i, double n, double split);
/// Seconds per epoch of every layer for `samples` samples per GPU in kernels of `call`
/// samples, the parallel layers (up to `last`) split q ways; memoised in `memo` if given.
double compute_s(const Workload& w, const Config& c, ComputeMemo* memo, double samples, double call,
                 double q, int last = kAllLayers);

// Communication (communication.cpp).

struct GradientExchange {
  double seconds = 0;
  std::string_view label;  ///< static string
};
/// The link of a communicator spanning `span` consecutive GPUs: the worst pair's level, its
/// bandwidth (one network adapter's) divided by the level's over-subscription; across nodes
/// a flat communicator (flows = 0: every GPU of each node) uses all the node's adapters,
/// while `flows` concurrent communicators of one GPU per node share them (the principled
/// form of ParaDL's contention divisors; docs/cost-model.md §network-levels).
system::Link link_of(const Workload& w, std::int64_t span, std::int64_t flows);
/// The allreduce NCCL would pick (ring, double binary tree, two-level) among p GPUs
/// spanning `span` GPUs, with `flows` as for link_of.
GradientExchange nccl_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                std::int64_t span, double bytes, std::int64_t flows);
/// A hybrid's gradient exchange across p1 groups of p2 GPUs, each GPU holding a shard of
/// shard_bytes: p2 concurrent allreduces, or (policy leader_reduce) reduce to one GPU per
/// group, allreduce among the leaders, broadcast.
GradientExchange cross_group_exchange(const Workload& w, const Config& c, std::int64_t p1,
                                      std::int64_t p2, double shard_bytes);
/// Per-iteration seconds of the per-layer collectives of filter or channel parallelism over
/// q GPUs on consecutive GPUs, for `samples` samples per iteration, through the
/// implementation's transport for layer exchanges, its per-call overhead included.
struct LayerCollectives {
  double gather_s = 0;  ///< allgather ring (NCCL's allgather; filter: y forward, channel: dL/dy)
  double reduce_s = 0;  ///< partial sums (filter: dL/dx backward, channel: y forward)
  std::string_view reduce_label;              ///< static string
  double gather_calls = 0, reduce_calls = 0;  ///< per iteration, each paying the overhead
};
LayerCollectives layer_collectives(const Workload& w, const Config& c, std::int64_t q,
                                   double samples, bool filter);
/// Filter parallelism's dL/dx reduction (reduce_s per iteration) where the implementation
/// overlaps layer exchanges: it runs beside the weight-gradient GEMM, which needs none of it,
/// so up to half the backward pass hides it (BW_data and BW_weight do equal FLOPs).
inline void hide_input_gradient_reduction(Builder& b, const Config& c, double reduce_s) {
  if (!c.implementation.rule(Exchange::Layer).overlapped) return;
  b.overlapped(std::min(reduce_s, b.iteration_compute_s() * b.backward_share() / 2));
}
struct GradientOverlap {
  double total_s = 0, exposed_s = 0;  ///< per iteration
  std::string_view label;
  double calls = 1;  ///< the exchange's calls (buckets) per iteration
};
/// A gradient exchange of gradient_bytes in buckets (policy bucket_bytes), each bucket's
/// exchange given by `exchange(bytes) -> GradientExchange`, overlapped with a backward pass
/// of backward_s seconds that follows forward_s seconds of forward pass (per iteration);
/// blocking when the policy is off. `ready`: when each layer's gradients are ready
/// (LayerSums::gradient_ready); empty: evenly through the backward pass.
template <class ExchangeFn>
GradientOverlap overlapped_exchange(const Config& c, double gradient_bytes, double forward_s,
                                    double backward_s, const ExchangeFn& exchange,
                                    std::span<const cost::GradientReady> ready = {}) {
  if (!c.policies.overlap_gradients || !c.implementation.rule(Exchange::Gradient).overlapped ||
      gradient_bytes <= 0) {
    const GradientExchange x = exchange(gradient_bytes);
    return {x.seconds, x.seconds, x.label, 1};
  }
  const double k = std::max(1.0, std::ceil(gradient_bytes / c.policies.bucket_bytes));
  if (!ready.empty()) {  // per layer, DDP's buckets (docs/cost-model.md §overlap)
    const auto x = cost::per_layer_buckets(ready, gradient_bytes, c.policies.bucket_bytes,
                                           forward_s, backward_s, exchange);
    double exposed = std::clamp(x.finish_s - (forward_s + backward_s), 0.0, x.total_s);
    if (x.total_s - exposed <= 1e-9 * x.total_s) exposed = x.total_s;  // rounding, not overlap
    return {x.total_s, exposed, x.label, k};
  }
  // Buckets of bucket_bytes become ready evenly through the backward pass and are reduced
  // one after another (Barrachina et al.'s per-layer overlap, docs/cost-model.md §overlap, with
  // DDP's buckets): exposed = what runs past the end of the backward pass.
  const GradientExchange bucket = exchange(gradient_bytes / k);
  // closed form (a loop over the buckets never ended for 10^16 of them)
  const double finish = cost::bucketed_finish_s(forward_s, backward_s, k, bucket.seconds);
  const double total = k * bucket.seconds;
  double exposed = std::clamp(finish - (forward_s + backward_s), 0.0, total);
  if (total - exposed <= 1e-9 * total) exposed = total;  // rounding (1e-14 s), not overlap
  return {total, exposed, bucket.label, k};
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

// Transport (transport.cpp; docs/implementations.md §transport).

enum class Collective : std::uint8_t { Allgather, ReduceScatter, Allreduce };
/// The algorithm collective_s costs an allgather or a reduce-scatter among q GPUs spanning
/// `span` by, for the parts' tables (a static string): the ring, or for CUDA-aware MPI across
/// nodes Open MPI's choice for large messages (neighbour exchange for even q, a ring for odd
/// q; the pairwise alltoall and a sum for partial sums).
std::string_view collective_label(const Workload& w, const Config& c, Exchange e, Collective op,
                                  std::int64_t q, std::int64_t span);
/// One staged copy of `bytes` between a GPU and the host while every GPU of the node copies:
/// the copy's start-up and the bytes over the PCIe switch's uplink shared by its GPUs (the
/// profile's staging rate, or the system's host link).
double staged_copy_s(const Workload& w, const Config& c, double bytes);
/// One ring collective of exchange kind `e` among q GPUs spanning `span` (`flows` as link_of),
/// n bytes as cost:: takes them: GPU-direct on link_of, or host-staged (copies out and in,
/// MPI's ring across nodes), or CUDA-aware MPI across nodes in the steps of Open MPI's own
/// algorithm. Without the per-call overhead.
double collective_s(const Workload& w, const Config& c, Exchange e, Collective op, std::int64_t q,
                    std::int64_t span, std::int64_t flows, double n);
/// One point-to-point message of n bytes of kind `e` on `link`: direct, or staged (copies
/// out and in, the network when it crosses nodes). Without the per-call overhead.
double send_s(const Workload& w, const Config& c, Exchange e, const system::Link& link,
              bool across_nodes, double n);
/// An allreduce of kind `e` (gradient, or filter/channel partial sums by allreduce):
/// GPU-direct, NCCL's choice (nccl_allreduce); host-staged, MPI's ring across nodes between
/// the copies. With the per-call overhead.
GradientExchange allreduce_exchange(const Workload& w, const Config& c, Exchange e, std::int64_t p,
                                    std::int64_t span, double bytes, std::int64_t flows);
/// The implementation's input broadcast (Profile::input_broadcast): each iteration's
/// `samples` to a group of `group` GPUs, recorded in b (phase IO, blocking).
void input_broadcast(const Workload& w, const Config& c, Builder& b, std::int64_t group,
                     double samples);
/// The implementation's rule for exchanges of kind e.
inline const implementation::ExchangeRule& rule(const Config& c, Exchange e) {
  return c.implementation.rule(e);
}
/// Records an exchange of kind e in b: per iteration `seconds`, `calls` calls' overhead in it.
inline void record(Builder& b, const Config& c, Exchange e, std::string_view name,
                   std::string_view collective, std::string_view phase, std::int64_t gpus,
                   double seconds, double calls) {
  b.comm(name, collective, phase, gpus, seconds, rule(c, e).transport,
         calls * rule(c, e).overhead_s);
}

// Spatial splits (halo.cpp).

/// The halo exchange of split layer i (model::window_halos), per iteration of `samples`,
/// with its messages' count added to `messages`.
double halo_s(const Workload& w, const Config& c, std::size_t i, const Parts& parts,
              const system::Link& link, bool across_nodes, double samples, double bytes,
              double& messages);
/// Elements per sample the allgather after the split layer `split` gathers: every tensor
/// made up to it and read after it (LayerStats::crossing_elements): its output and the
/// skips across it, a residual block's input, U-Net's encoder features for the decoder.
/// None when nothing follows it (the loss computed split).
inline double gathered_after_split(const Workload& w, int split) {
  const auto next = static_cast<std::size_t>(split) + 1;
  return next < w.model.layers.size() ? static_cast<double>(w.model.layers[next].crossing_elements)
                                      : 0.0;
}
/// Spatial parallelism's exchanges inside a group of `group` GPUs on `link`, for `samples`
/// per group: every split layer's halos, then the allgather of what the layers after the
/// split read (forward only: the replicated layers give every GPU the whole dL/dy). Both go
/// into b; returns the halo seconds (the gradient exchange overlaps half of them each way).
double spatial_exchanges(const Workload& w, const Config& c, const detail::SpatialPlan& plan,
                         std::int64_t group, const system::Link& link, double samples, double bytes,
                         Builder& b);

}  // namespace paradise::strategy::extended
