// The extended model's data+spatial: spatial parallelism inside groups of p2 GPUs, halos and
// the split layer's allgather over the group's direct link (NCCL point-to-point,
// GPUDirect), and the gradient exchange per bucket (reduce-scatter in the group, p2
// concurrent allreduces of 1/p2 across the groups, allgather in the group; or the leader
// form) overlapped with the backward pass (docs/cost-model.md §two-level-allreduce, §overlap).
#include "../memory/memory.hpp"
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {
namespace {

// The gradient exchange of `bytes` among the p1 x p2 GPUs (in the group on its own link).
GradientExchange group_exchange(const Workload& w, const Config& c, std::int64_t p1,
                                std::int64_t p2, double bytes) {
  const auto in_group = [&] {
    return collective_s(w, c, Exchange::Gradient, Collective::Allreduce, p2, p2, 0, bytes);
  };
  if (p1 == 1) return {in_group(), "reduce-scatter+allgather/ring"};
  const auto x = cross_group_exchange(w, c, p1, p2, bytes / static_cast<double>(p2));
  // the leader form's reduce and broadcast are in the group; a group of one has none
  if (c.policies.leader_reduce || p2 == 1) return x;
  return {in_group() + x.seconds, "allreduce/two-level"};
}

}  // namespace

void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b,
                  ComputeMemo* memo) {
  const auto groups = detail::split_groups(w, c, b);
  if (!groups) return;
  // named, not bound: clang 14 lambdas cannot capture structured bindings
  const std::int64_t p1 = groups->first, p2 = groups->second;
  const auto plan = detail::take_spatial_split(
      w, b, p2, spatial_split_dims(c.spatial_split, w.model.input.rank), splits_every_layer(c));
  if (!plan) return;
  const int split = plan->last;
  // NOLINTNEXTLINE(bugprone-integer-division): whole samples per group, floor(B / p1)
  const double per_group = static_cast<double>(c.batch / p1);
  b.compute(
      compute_s(w, c, memo, b.iterations() * per_group, per_group, static_cast<double>(p2), split),
      b.iterations());
  const system::Link link = link_of(w, p2, 0);
  const double e = element_bytes(c);
  const double halo = spatial_exchanges(w, c, *plan, p2, link, per_group, e, b);
  const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
  const auto g = overlapped_exchange(
      c, s.w * e, iteration - bwd + halo / 2, bwd + halo / 2,
      [&](double n) { return group_exchange(w, c, p1, p2, n); }, s.gradient_ready);
  record(b, c, Exchange::Gradient, "gradient allreduce (in the group, across groups)", g.label,
         "GE", c.gpus, g.total_s, g.calls);
  b.overlapped(g.total_s - g.exposed_s);
  zero3_parameter_allgather(b, c, s.w, c.gpus, link_of(w, c.gpus, 0));
  input_broadcast(w, c, b, p2, per_group);
  const TileActivations tile = tile_activations(w, c, plan->parts, split);
  memory_account(b, s, c, per_group, s.w, c.gpus, std::nullopt, &tile);
}

}  // namespace paradise::strategy::extended
