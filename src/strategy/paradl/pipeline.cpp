// ParaDL's layer (pipeline) parallelism, GPipe (TR eqs. 12-14, docs/cost-model.md
// §paradl-per-epoch): T_comp = D (p+S-1)/S max_i T_{G_i}; T_comm = 2 (D (p+S-2)/B) max_i (a +
// (B/S)|y_{G_i}| delta b); M = 2 delta max_i sum_{l in g_i} (B(|x_l|+|y_l|) + |w_l|) (all S
// micro-batches kept, note P2).
#include <algorithm>

#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {

void pipeline(const Workload& w, const Config& c, const Totals&, Builder& b) {
  const auto shape = detail::pipeline_shape(w, c, b, c.gpus, 1);
  if (!shape) return;
  const double B = shape->batch, S = static_cast<double>(shape->segments);
  // ParaDL balances the stages on its measured times
  const auto ends = detail::balanced_partition(shape->times, static_cast<std::size_t>(c.gpus));
  const double p = static_cast<double>(c.gpus), D = static_cast<double>(w.dataset_samples);
  double max_t = 0, max_mem = 0, max_boundary = 0;
  std::size_t begin = 0;
  for (std::size_t g = 0; g < ends.size(); ++g) {
    double time = 0, mem = 0;
    for (std::size_t k = begin; k < ends[g]; ++k) {
      const auto& l = w.model.layers[shape->first + k];
      time += shape->times[k];
      mem += static_cast<double>(l.params);
      if (counts_for_memory(l))
        mem += B * static_cast<double>(l.input_elements + l.output_elements);
    }
    max_t = std::max(max_t, time);
    max_mem = std::max(max_mem, mem);
    // the stage's last layer's output crosses to the next stage
    if (g + 1 < ends.size()) {
      const auto& last = w.model.layers[shape->first + ends[g] - 1];
      max_boundary = std::max(max_boundary, static_cast<double>(last.output_elements));
    }
    begin = ends[g];
  }
  b.compute(D * (p + S - 1) / S * max_t, D / B);
  if (c.gpus > 1) {
    const double transfer = cost::p2p(w.system.link_for(c.gpus), B / S * max_boundary * b.delta());
    const double per_epoch = 2 * (D * (p + S - 2) / static_cast<double>(c.batch)) * transfer;
    b.comm("stage boundary send/recv", "p2p", "FB", c.gpus, per_epoch / b.iterations());
  }
  b.memory("largest stage: activations, weights and gradients", 2 * b.delta() * max_mem);
}

}  // namespace paradise::strategy::paradl
