// The extended model's serial training: roofline compute of the batch on one GPU and
// memory by component (docs/cost-model.md §memory).
#include "../memory/memory.hpp"
#include "extended.hpp"

namespace paradise::strategy::extended {

void serial(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo) {
  if (!detail::one_gpu(c, b)) return;
  const auto B = static_cast<double>(c.batch);
  const auto D = static_cast<double>(w.dataset_samples);
  b.compute(compute_s(w, c, memo, D, B, 1), D / B);
  memory_account(b, s, c, B, s.w, 1);
}

}  // namespace paradise::strategy::extended
