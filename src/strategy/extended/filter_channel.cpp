// The extended model's filter and channel parallelism: the parallel layers' compute split
// p ways on the roofline (the GEMM dimension it divides), NCCL's collectives on the group's
// link with the partial sums reduce-scattered (TR §III footnote), memory by component.
#include "../memory/memory.hpp"
#include "extended.hpp"

namespace paradise::strategy::extended {

void filter_channel(const Workload& w, const Config& c, const Totals& s, Builder& b,
                    ComputeMemo* memo, bool filter) {
  if (!detail::model_parallel_fits(w, c, b, filter)) return;
  const double p = static_cast<double>(c.gpus);
  const double B = static_cast<double>(c.batch);
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(compute_s(w, c, memo, D, B, p), D / B);
  const auto x = layer_collectives(w, c, c.gpus, B, filter);
  if (filter) {
    b.comm("forward allgather of y", "allgather/ring", "FB", c.gpus, x.gather_s);
    b.comm("backward reduction of dL/dx's partial sums", x.reduce_label, "FB", c.gpus, x.reduce_s);
  } else {
    b.comm("forward reduction of y's partial sums", x.reduce_label, "FB", c.gpus, x.reduce_s);
    b.comm("backward allgather of dL/dy", "allgather/ring", "FB", c.gpus, x.gather_s);
  }
  memory_account(b, s, c, B, s.w - s.w_active + s.w_active / p, 1);
}

}  // namespace paradise::strategy::extended
