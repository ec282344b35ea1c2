// ParaDL's serial training (TR eq. 3): T_comp = D sum(FW+BW); M = 2 delta (B sum(|x|+|y|) +
// sum|w|).
#include "paradl.hpp"

namespace paradise::strategy::paradl {

void serial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  if (!detail::one_gpu(c, b)) return;
  const auto B = static_cast<double>(c.batch);
  const auto D = static_cast<double>(w.dataset_samples);
  b.compute(D * s.t, D / B);
  b.memory("activations (x, y and their gradients)", 2 * b.delta() * B * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * s.w);
}

}  // namespace paradise::strategy::paradl
