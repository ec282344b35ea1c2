// The `paradise` variant's policies (cost-model-notes §3, §5.3, §6): roofline compute with a
// kernel-size efficiency, NCCL-like allreduce choice, gradient buckets overlapped with the
// backward pass, and memory by component. The strategies call these instead of ParaDL's
// rules when Config::variant is Paradise; ParaDL's code paths are untouched.
#include <algorithm>
#include <cmath>

#include "paradise/cost/collectives.hpp"
#include "paradise/strategy/compute_memo.hpp"
#include "paradise/strategy/roofline.hpp"
#include "strategy_detail.hpp"

namespace paradise::strategy::detail {
namespace {

GemmSplit gemm_split(const Config& c) {
  switch (c.kind) {
    case Kind::Filter:
    case Kind::DataFilter:
      return GemmSplit::Filters;
    case Kind::Channel:
      return GemmSplit::Channels;
    default:
      return GemmSplit::Samples;
  }
}

double roofline_s(const Workload& w, const Config& c, const model::LayerStats& l, double n,
                  double q) {
  return roofline_layer_s(w.system.gpu, c.precision, l, n, q, gemm_split(c),
                          gemm_curve(w.system.gpu));
}

}  // namespace

double element_bytes(const Config& c) {
  return element_bytes(c.precision);
}

double paradise_layer_s(const Workload& w, const Config& c, std::size_t i, double n, double q,
                        int last) {
  const double split = runs_split(w, c, i, last) ? q : 1;
  const double measured = w.layer_time_s[i] * n;  // ParaDL's parametrisation (§1.5)
  if (!c.policies.roofline_compute) return measured / split;
  if (w.measured_time && split == 1) return measured;  // the roofline's ratio is 1
  const auto& l = w.model.layers[i];
  const double r = roofline_s(w, c, l, n, split);
  if (!w.measured_time) return r;
  // scaled to the measurement: the roofline's ratio split / unsplit applied to it
  const double whole = roofline_s(w, c, l, n, 1);
  return whole > 0 ? measured * r / whole : measured / split;
}

double paradise_compute(const Workload& w, const Config& c, double samples, double call, double q,
                        int last) {
  if (samples <= 0 || call <= 0) return 0;
  // the split only matters through the GEMM dimension it divides (gemm_efficiency)
  const auto split =
      static_cast<std::uint8_t>(q == 1                                                 ? 0
                                : c.kind == Kind::Filter || c.kind == Kind::DataFilter ? 1
                                : c.kind == Kind::Channel                              ? 2
                                                                                       : 3);
  const ComputeMemo::Key key{call, q, split, static_cast<std::uint8_t>(c.precision), last};
  if (c.compute_memo) {
    if (const double* t = c.compute_memo->find(key)) return samples / call * *t;
  }
  double t = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i)
    t += paradise_layer_s(w, c, i, call, q, last);
  if (c.compute_memo) c.compute_memo->put(key, t);
  return samples / call * t;
}

system::Link paradise_link(const Workload& w, std::int64_t span, std::int64_t flows) {
  const auto& s = w.system;
  const auto& level = s.level_for(span);
  double bandwidth = level.bandwidth_Bps / level.oversubscription;
  if (span > s.gpus_per_node) {
    const double nics =
        static_cast<double>(s.nics_per_node > 0 ? s.nics_per_node : s.gpus_per_node);
    const double flat = std::min(nics, static_cast<double>(s.gpus_per_node));  // adapters used
    const double adapter = level.node_bandwidth ? bandwidth / flat : bandwidth;
    bandwidth = adapter * (flows == 0 ? flat : std::min(1.0, nics / static_cast<double>(flows)));
  }
  return {level.latency_s, 1 / bandwidth, 0};
}

GradientExchange paradise_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                    std::int64_t span, double bytes, std::int64_t flows) {
  const system::Link link = paradise_link(w, span, flows);
  if (!c.policies.choose_algorithm)
    return {cost::allreduce(c.gradient_allreduce, link, p, bytes),
            cost::allreduce_label(c.gradient_allreduce)};
  // NCCL's tuner (§5.3): ring or tree by predicted time; across nodes also the two-level
  // form (reduce-scatter in the node, allreduce of n/g across nodes, allgather)
  GradientExchange best{cost::allreduce_ring(link, p, bytes), "allreduce/ring"};
  const std::int64_t g = w.system.gpus_per_node;
  // the tree: a chain through each node's ranks (p spread over the nodes span GPUs cover,
  // at least one per node), binary trees between the nodes
  const std::int64_t per_node =
      span <= g ? p : std::clamp<std::int64_t>(p / ((span + g - 1) / g), 1, g);
  const double tree = p > 1 ? cost::allreduce_double_binary_tree_two_level(
                                  w.system.link_for(std::min(p, g)), link, per_node,
                                  (p + per_node - 1) / per_node, bytes)
                            : 0;
  if (tree < best.seconds) best = {tree, "allreduce/double-binary-tree"};
  if (flows == 0 && p == span && p > g && g > 1 && p % g == 0) {
    // the g GPUs of a node each reduce n/g across the nodes at once: g flows per node
    const double two_level =
        cost::allreduce_hierarchical(w.system.link_for(g), paradise_link(w, p, g), g, p / g, bytes);
    if (two_level < best.seconds) best = {two_level, "allreduce/hierarchical"};
  }
  return best;
}

LayerCollectives paradise_layer_collectives(const Workload& w, const Config& c, std::int64_t q,
                                            double samples, bool filter) {
  LayerCollectives out{0, 0, "allreduce/ring"};
  if (q < 2) return out;
  const system::Link link = paradise_link(w, q, 0);
  const double e = element_bytes(c);
  const auto& layers = w.model.layers;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (!w.active[i]) continue;
    const auto& l = layers[i];
    // the first layer's input is the data: no dL/dx to reduce (filter), nothing split to
    // sum (channel, which starts at the second layer; TR §III, §V-A)
    const bool first = reads_the_data(w.model, i);
    const double y = samples * static_cast<double>(l.output_elements) * e;
    if (filter) out.gather_s += cost::allgather_ring(link, q, y);  // y forward
    if (first) continue;
    if (!filter) out.gather_s += cost::allgather_ring(link, q, y);  // dL/dy backward
    // partial sums: dL/dx backward (filter), y forward (channel); the layer beside needs only
    // its own partition, so a reduce-scatter does (TR §III footnote), or NCCL's allreduce
    const double n = filter ? samples * static_cast<double>(l.input_elements) * e : y;
    if (c.policies.reduce_scatter_partial_sums) {
      out.reduce_s += cost::reduce_scatter_ring(link, q, n);
      out.reduce_label = "reduce-scatter/ring";
    } else {
      const auto x = paradise_allreduce(w, c, q, q, n, 0);
      out.reduce_s += x.seconds;
      out.reduce_label = x.label;
    }
  }
  return out;
}

GradientOverlap overlapped_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                     double gradient_bytes, double forward_s, double backward_s,
                                     std::span<const cost::GradientReady> ready) {
  return overlapped_exchange(
      c, gradient_bytes, forward_s, backward_s,
      [&](double n) { return paradise_allreduce(w, c, p, p, n, 0); }, ready);
}

GradientExchange cross_group_exchange(const Workload& w, const Config& c, std::int64_t p1,
                                      std::int64_t p2, double shard_bytes) {
  const std::int64_t p = p1 * p2;
  // groups of one GPU: one flat communicator of all p, as data parallelism's
  if (p2 == 1) return paradise_allreduce(w, c, p, p, shard_bytes, 0);
  if (!c.policies.leader_reduce) {
    // every GPU of a group exchanges its own shard with its peers of the other groups: p2
    // concurrent communicators per node share the node's adapters (ParaDL: bandwidth / 2 p2)
    const auto x =
        paradise_allreduce(w, c, p1, p, shard_bytes, std::min(p2, w.system.gpus_per_node));
    return {x.seconds, x.label};
  }
  // reduce to a leader, leaders allreduce everything, broadcast back (cost-model-notes
  // §5.2 (b): what ParaDL's hybrids measured)
  const double n = shard_bytes * static_cast<double>(p2);
  const system::Link node = w.system.link_for(p2);
  const auto leaders =
      paradise_allreduce(w, c, p1, p, n, std::max<std::int64_t>(1, w.system.gpus_per_node / p2));
  return {
      cost::reduce_binomial(node, p2, n) + leaders.seconds + cost::broadcast_binomial(node, p2, n),
      "reduce+allreduce+broadcast"};
}

// ZeRO-3 (Rajbhandari et al. 2020, §7.2.2): 1.5x data parallelism's volume, the gradients'
// reduce-scatter, the forward pass's parameter allgather (the exchange's two halves, counted
// with it) and one more allgather of the parameters, freed after the forward, for the
// backward; blocking.
void zero3_parameter_allgather(Builder& b, const Config& c, double local_params,
                               std::int64_t data_parallel, const system::Link& link) {
  if (c.policies.zero_stage < 3 || data_parallel <= 1) return;
  b.comm("parameter allgather for the backward pass (ZeRO-3)", "allgather/ring", "FB",
         data_parallel, cost::allgather_ring(link, data_parallel, local_params * element_bytes(c)));
}

// Model state per parameter (cost-model-notes §6.3): weights, gradients, optimizer state;
// mixed precision keeps fp16 weights and gradients and an fp32 master copy.
namespace {

// Bytes per parameter of each part of the model state (cost-model-notes §6.3): weights and
// gradients at the training precision, optimizer state (Adam 2 moments, momentum 1, fp32)
// plus mixed precision's fp32 master copy, each divided over the replicas by its ZeRO stage
struct StateBytes {
  double weights, gradients, optimizer, bucket;  // bucket: DDP's gradient copy (replicas only)
};

StateBytes state_bytes_per_param(const Config& c, std::int64_t data_parallel) {
  const auto& pol = c.policies;
  const double e = element_bytes(c), mixed = c.precision == Precision::Mixed ? 4 : 0;
  const double state = (pol.optimizer == Optimizer::Adam       ? 8
                        : pol.optimizer == Optimizer::Momentum ? 4
                                                               : 0) +
                       mixed;
  const double dp = static_cast<double>(std::max<std::int64_t>(1, data_parallel));
  const auto shard = [&](int stage) { return pol.zero_stage >= stage ? dp : 1.0; };
  return {e / shard(3), e / shard(2), state / shard(1), data_parallel > 1 ? e / shard(2) : 0};
}

}  // namespace

double model_state_bytes(const Config& c, double local_params, std::int64_t data_parallel) {
  const auto b = state_bytes_per_param(c, data_parallel);
  return local_params * (b.weights + b.gradients + b.optimizer + b.bucket);
}

void paradise_memory(Builder& b, const LayerSums& s, const Config& c, double activation_samples,
                     double local_params, std::int64_t data_parallel,
                     std::optional<GradientPeak> stage, const TileActivations* tile) {
  const auto& pol = c.policies;
  // a GPU holds whole bytes: a share that comes out fractional (a spatial split's tiles, a
  // filter split's or a ZeRO shard's parameters) is rounded up, component by component
  const auto memory = [&b](const char* what, double bytes) { b.memory(what, std::ceil(bytes)); };
  const double e = element_bytes(c);
  const auto per_param = state_bytes_per_param(c, data_parallel);
  // saved for backward (issue 2's rule per layer) and the activation gradients: those alive
  // at the backward pass's peak beyond the saved activations autograd has released by then
  // (§6.2: not the sum over layers; with recomputation, segment by segment), or all of
  // them kept (TensorFlow's tape); a pipeline stage's own peak for its one micro-batch in
  // the backward pass
  const std::size_t at = element_size_index(e);
  // a pipeline stage recomputes its own forward pass whenever asked (predict.cpp)
  const bool recompute = stage ? pol.recompute_activations : recomputes(c, s);
  // under a spatial split with recomputation: the whole model's plan, scaled by the tile's
  // share of its saved activations (the plan is not made again per tile; README)
  const double share = tile && s.saved > 0 ? tile->saved / s.saved : 1;
  memory(recompute ? "saved activations (checkpoints + one recomputed segment)"
                   : "saved activations (autograd)",
         activation_samples *
             (recompute ? share * (s.recompute_saved[at] * e + s.recompute_saved_fixed_bytes[at])
              : tile    ? tile->saved * e + tile->saved_fixed_bytes
                        : s.saved * e + s.saved_fixed_bytes));
  if (tile && !recompute)
    memory("halos of the split layers' inputs", activation_samples * tile->halo * e);
  const double kept =
      e * (tile ? std::max(tile->largest_pair, tile->outputs + tile->largest_in_place)
                : std::max(s.largest_pair, s.outputs + s.largest_in_place));
  const double gradient_bytes = !pol.free_activation_gradients ? kept
                                : stage                        ? stage->bytes_per_sample
                                : recompute ? share * s.recompute_gradient_peak_bytes[at]
                                : tile      ? tile->gradient_peak_bytes
                                            : s.gradient_peak_bytes[at];
  memory("activation gradients", (stage ? stage->samples : activation_samples) * gradient_bytes);
  memory("weights", local_params * per_param.weights);
  memory("gradients", local_params * per_param.gradients);
  memory("optimizer state", local_params * per_param.optimizer);
  memory("convolution workspace", pol.workspace_bytes);
  // NCCL's buffers only where there is a communicator (one GPU has none)
  memory("communication buffers",
         (c.gpus > 1 ? pol.comm_buffer_bytes : 0) + local_params * per_param.bucket);
  memory("runtime context", pol.context_bytes);
}

}  // namespace paradise::strategy::detail
