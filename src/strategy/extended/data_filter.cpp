// The extended model's data+filter: filter parallelism inside groups of p2 GPUs with NCCL's
// in-group collectives per layer, and the cross-group exchange of each GPU's 1/p2 of the
// gradients (its filters' and a share of the replicated layers') in buckets overlapped with
// the backward pass and its collectives (docs/cost-model.md §two-level-allreduce, §overlap).
#include "../memory/memory.hpp"
#include "extended.hpp"

namespace paradise::strategy::extended {

void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b,
                 ComputeMemo* memo) {
  if (!detail::data_filter_fits(w, c, b)) return;
  const auto groups = detail::split_groups(w, c, b);
  if (!groups) return;
  // named, not bound: clang 14 lambdas cannot capture structured bindings
  const std::int64_t p1 = groups->first, p2 = groups->second;
  const double q = static_cast<double>(p2);
  // NOLINTNEXTLINE(bugprone-integer-division): whole samples per group, floor(B / p1)
  const double per_group = static_cast<double>(c.batch / p1);
  b.compute(compute_s(w, c, memo, b.iterations() * per_group, per_group, q), b.iterations());
  const double split_weights = s.w - s.w_active + s.w_active / q;
  const auto x = layer_collectives(w, c, p2, per_group, true);
  record(b, c, Exchange::Layer, "forward allgather of y in a group",
         collective_label(w, c, Exchange::Layer, Collective::Allgather, p2, p2), "FB", p2,
         x.gather_s, x.gather_calls);
  record(b, c, Exchange::Layer, "backward reduction of dL/dx's partial sums in a group",
         x.reduce_label, "FB", p2, x.reduce_s, x.reduce_calls);
  hide_input_gradient_reduction(b, c, x.reduce_s);
  if (p1 > 1) {
    const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
    const auto g = overlapped_exchange(
        c, s.w / q * element_bytes(c), iteration - bwd + x.gather_s, bwd + x.reduce_s,
        [&](double n) { return cross_group_exchange(w, c, p1, p2, n); }, s.gradient_ready);
    record(b, c, Exchange::Gradient, "gradient allreduce across groups", g.label, "GE", p1,
           g.total_s, g.calls);
    b.overlapped(g.total_s - g.exposed_s);
  }
  // p2 concurrent communicators of one GPU per group share the nodes' adapters
  zero3_parameter_allgather(b, c, split_weights, p1,
                            link_of(w, c.gpus, p2 > 1 ? std::min(p2, w.system.gpus_per_node) : 0));
  input_broadcast(w, c, b, p2, per_group);
  memory_account(b, s, c, per_group, split_weights, p1);
}

}  // namespace paradise::strategy::extended
