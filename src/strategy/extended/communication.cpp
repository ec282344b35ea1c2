// The extended model's communication (docs/cost-model.md §overlap, §nccl): links shared by
// concurrent flows, the allreduce NCCL's tuner would pick, the per-layer collectives of
// filter and channel parallelism, the hybrids' exchange across groups, ZeRO-3's allgather.
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {

system::Link link_of(const Workload& w, std::int64_t span, std::int64_t flows) {
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

GradientExchange nccl_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                std::int64_t span, double bytes, std::int64_t flows) {
  const system::Link link = link_of(w, span, flows);
  if (!c.policies.choose_algorithm)
    return {cost::allreduce(c.gradient_allreduce, link, p, bytes),
            cost::allreduce_label(c.gradient_allreduce)};
  // NCCL's tuner (docs/cost-model.md §nccl): ring or tree by predicted time; across nodes also the
  // two-level form (reduce-scatter in the node, allreduce of n/g across nodes, allgather)
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
        cost::allreduce_hierarchical(w.system.link_for(g), link_of(w, p, g), g, p / g, bytes);
    if (two_level < best.seconds) best = {two_level, "allreduce/hierarchical"};
  }
  return best;
}

LayerCollectives layer_collectives(const Workload& w, const Config& c, std::int64_t q,
                                   double samples, bool filter) {
  LayerCollectives out{0, 0, "allreduce/ring"};
  if (q < 2) return out;
  const double e = element_bytes(c);
  const double overhead = rule(c, Exchange::Layer).overhead_s;
  const auto allgather = [&](double n) {
    out.gather_s +=
        collective_s(w, c, Exchange::Layer, Collective::Allgather, q, q, 0, n) + overhead;
    ++out.gather_calls;
  };
  const auto& layers = w.model.layers;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (!w.active[i]) continue;
    const auto& l = layers[i];
    // the first layer's input is the data: no dL/dx to reduce (filter), nothing split to
    // sum (channel, which starts at the second layer; TR §III, §V-A)
    const bool first = reads_the_data(w.model, i);
    const double y = samples * static_cast<double>(l.output_elements) * e;
    if (filter) allgather(y);  // y forward
    if (first) continue;
    if (!filter) allgather(y);  // dL/dy backward
    // partial sums: dL/dx backward (filter), y forward (channel); the layer beside needs only
    // its own partition, so a reduce-scatter does (TR §III footnote), or NCCL's allreduce
    const double n = filter ? samples * static_cast<double>(l.input_elements) * e : y;
    ++out.reduce_calls;
    if (c.policies.reduce_scatter_partial_sums) {
      out.reduce_s +=
          collective_s(w, c, Exchange::Layer, Collective::ReduceScatter, q, q, 0, n) + overhead;
    } else {
      const auto x = allreduce_exchange(w, c, Exchange::Layer, q, q, n, 0);
      out.reduce_s += x.seconds;
      out.reduce_label = x.label;
    }
  }
  if (c.policies.reduce_scatter_partial_sums && out.reduce_calls > 0)
    out.reduce_label = collective_label(w, c, Exchange::Layer, Collective::ReduceScatter, q, q);
  return out;
}

GradientOverlap overlapped_allreduce(const Workload& w, const Config& c, std::int64_t p,
                                     double gradient_bytes, double forward_s, double backward_s,
                                     std::span<const cost::GradientReady> ready) {
  return overlapped_exchange(
      c, gradient_bytes, forward_s, backward_s,
      [&](double n) { return allreduce_exchange(w, c, Exchange::Gradient, p, p, n, 0); }, ready);
}

GradientExchange cross_group_exchange(const Workload& w, const Config& c, std::int64_t p1,
                                      std::int64_t p2, double shard_bytes) {
  const std::int64_t p = p1 * p2;
  // groups of one GPU: one flat communicator of all p, as data parallelism's
  if (p2 == 1) return allreduce_exchange(w, c, Exchange::Gradient, p, p, shard_bytes, 0);
  if (!c.policies.leader_reduce) {
    // every GPU of a group exchanges its own shard with its peers of the other groups: p2
    // concurrent communicators per node share the node's adapters (ParaDL: bandwidth / 2 p2)
    const auto x = allreduce_exchange(w, c, Exchange::Gradient, p1, p, shard_bytes,
                                      std::min(p2, w.system.gpus_per_node));
    return {x.seconds, x.label};
  }
  // reduce to a leader, leaders allreduce everything, broadcast back (docs/cost-model.md
  // §two-level-allreduce (b): what ParaDL's hybrids measured)
  const double n = shard_bytes * static_cast<double>(p2);
  const system::Link node = w.system.link_for(p2);
  const auto leaders = allreduce_exchange(w, c, Exchange::Gradient, p1, p, n,
                                          std::max<std::int64_t>(1, w.system.gpus_per_node / p2));
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
  if (c.zero_stage < 3 || data_parallel <= 1) return;
  b.comm("parameter allgather for the backward pass (ZeRO-3)", "allgather/ring", "FB",
         data_parallel, cost::allgather_ring(link, data_parallel, local_params * element_bytes(c)));
}

}  // namespace paradise::strategy::extended
