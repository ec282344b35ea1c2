// Hierarchical data parallelism with periodic global synchronisation, as DASO (Coquelin et
// al., J. Big Data 2022; docs/cost-model.md §daso) does it. In its steady state
// gradients are averaged inside the node every local_skip batches; every global_skip
// batches one GPU per node allreduces the parameters in bf16 across the nodes, without
// blocking, and the result, merged batches_to_wait batches later, is broadcast in the node.
// T_batch = T_comp + AR_node(n delta)/ls + [B_node(n delta) + max(0, AR_net(n 2) - btw T_comp)]/gs;
// warm-up and cool-down epochs: gs = ls = 1, btw = 0 (docs/cost-model.md §daso).
#include <algorithm>
#include <cmath>

#include "../memory/memory.hpp"
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {

void daso(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo) {
  if (!detail::batch_divides_among_gpus(c, b)) return;
  const std::int64_t g = std::min(c.gpus, w.system.gpus_per_node);
  if (c.gpus % g != 0)
    return b.invalid(std::to_string(c.gpus) + " GPUs are not whole nodes of " + std::to_string(g));
  const std::int64_t nodes = c.gpus / g;
  const auto& pol = c.daso;
  const double p = static_cast<double>(c.gpus);
  const double samples = std::ceil(static_cast<double>(w.dataset_samples) / p),
               per_gpu = static_cast<double>(c.batch) / p;
  b.compute(compute_s(w, c, memo, samples, per_gpu, 1), samples / per_gpu);
  const double params = s.w;  // sum |w_l|: the model's parameters
  const double n = params * element_bytes(c);
  const system::Link node = w.system.link_for(g);
  const double iteration = b.iteration_compute_s();
  // share of the run's epochs in warm-up or cool-down: every batch synchronised, blocking
  const double blocking =
      pol.run_epochs > 0 ? std::clamp(pol.blocking_epochs / pol.run_epochs, 0.0, 1.0) : 0;
  const double local_every = (1 - blocking) / pol.local_skip + blocking;
  const double global_every = (1 - blocking) / pol.global_skip + blocking;
  if (g > 1) {  // DDP inside the node: buckets overlapped with the backward pass
    const double bwd = iteration * b.backward_share();
    const auto local = overlapped_allreduce(w, c, g, n, iteration - bwd, bwd, s.gradient_ready);
    record(b, c, Exchange::Gradient, "node-local gradient allreduce", local.label, "GE", g,
           local.total_s * local_every, local.calls * local_every);
    b.overlapped((local.total_s - local.exposed_s) * local_every);
  }
  if (nodes > 1) {
    // one group (local rank i of every node) at a time: one flow per node; merged
    // batches_to_wait batches later in the steady state, waited for when blocking
    const auto global = allreduce_exchange(w, c, Exchange::Gradient, nodes, c.gpus, params * 2, 1);
    const double hidden = std::min(global.seconds, pol.batches_to_wait * iteration);
    record(b, c, Exchange::Gradient, "global parameter allreduce (bf16)", global.label, "GE", nodes,
           global.seconds * global_every, global_every);
    b.overlapped(hidden * (1 - blocking) / pol.global_skip);
    if (g > 1)
      b.comm("node-local parameter broadcast", "broadcast/binomial", "GE", g,
             cost::broadcast_binomial(node, g, n) * global_every);
  }
  // node-local DDP: its bucket buffer and (with ZeRO) shards over the node's replicas
  zero3_parameter_allgather(b, c, params, g, link_of(w, g, 0));  // inside the node
  memory_account(b, s, c, static_cast<double>(c.batch) / p, params, g);
  if (nodes > 1) b.memory("global sync buffers (bf16 send and receive)", 2 * params * 2);
}

}  // namespace paradise::strategy::extended
