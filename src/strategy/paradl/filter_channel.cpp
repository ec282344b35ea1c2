// ParaDL's filter and channel parallelism (TR eqs. 15-17, docs/cost-model.md §paradl-per-epoch):
// the parallel layers' compute and weights split p ways; allgather of y forward and allreduce of
// dL/dx backward (filter), swapped for channel: 3(p-1)(D/B) sum_l (a + (B|y_l|/p) delta b)
// over the parallel layers.
#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {

void filter_channel(const Workload& w, const Config& c, const Totals& s, Builder& b, bool filter) {
  if (!detail::model_parallel_fits(w, c, b, filter)) return;
  const double p = static_cast<double>(c.gpus);
  const double B = static_cast<double>(c.batch);
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(D * (s.t - s.t_active + s.t_active / p), D / B);
  system::Link link = w.system.link_for(c.gpus);
  const auto& v = c.paradl.version;
  if (v.filter_nvlink_latency) link.alpha_s = w.system.levels.front().latency_s;
  const int last_active = detail::last_active(w);
  double forward = 0, backward = 0;
  // ParaDL's code sums over every parallel layer, the last included (Table III stops at G-1).
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (!w.active[i] || (c.paradl.fix_bugs && static_cast<int>(i) == last_active)) continue;
    const double bytes = B * static_cast<double>(w.model.layers[i].output_elements) * b.delta();
    forward += cost::allgather_ring(link, c.gpus, bytes);
    backward += cost::allreduce_ring(link, c.gpus, bytes);
  }
  b.comm(filter ? "forward allgather of y" : "forward allreduce of y",
         filter ? "allgather/ring" : "allreduce/ring", "FB", c.gpus, filter ? forward : backward);
  b.comm(filter ? "backward allreduce of dL/dx" : "backward allgather of dL/dx",
         filter ? "allreduce/ring" : "allgather/ring", "FB", c.gpus, filter ? backward : forward);
  // ParaDL's code divides the split weights by p twice (docs/cost-model.md §paradl-quirks); fixed
  // on request.
  const double weights = s.w - s.w_active + s.w_active / p;
  b.memory("activations (x, y and their gradients)", 2 * b.delta() * B * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * (c.paradl.fix_bugs ? weights : weights / p));
}

}  // namespace paradise::strategy::paradl
