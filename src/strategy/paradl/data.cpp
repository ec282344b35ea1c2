// ParaDL's data parallelism (TR eqs. 5-7): T_comp = (D/p) sum(FW+BW);
// T_comm = 2(p-1)(D/B)(a + (sum|w|/p) delta b); M = 2 delta ((B/p) sum(|x|+|y|) + sum|w|).
#include <cmath>

#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {

void data(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  // an invalid configuration has no figures (Builder::finish): none are worked out
  if (!detail::batch_divides_among_gpus(c, b)) return;
  const double p = static_cast<double>(c.gpus);
  // ParaDL's code: each GPU processes ceil(D/p) samples per epoch
  const double samples = std::ceil(static_cast<double>(w.dataset_samples) / p);
  b.compute(samples * s.t, samples * p / static_cast<double>(c.batch));
  b.comm("gradient allreduce", cost::allreduce_label(c.gradient_allreduce), "GE", c.gpus,
         gradient_allreduce(c, w.system.link_for(c.gpus), c.gpus, s.w * b.delta()));
  b.memory("activations (x, y and their gradients)",
           2 * b.delta() * static_cast<double>(c.batch) / p * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * s.w);
}

}  // namespace paradise::strategy::paradl
