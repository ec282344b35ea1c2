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
  const auto layer = [&](std::string_view name, std::string_view label, double t, double calls) {
    record(b, c, Exchange::Layer, name, label, "FB", c.gpus, t, calls);
  };
  const auto gather =
      collective_label(w, c, Exchange::Layer, Collective::Allgather, c.gpus, c.gpus);
  if (filter) {
    layer("forward allgather of y", gather, x.gather_s, x.gather_calls);
    layer("backward reduction of dL/dx's partial sums", x.reduce_label, x.reduce_s, x.reduce_calls);
    hide_input_gradient_reduction(b, c, x.reduce_s);
  } else {
    layer("forward reduction of y's partial sums", x.reduce_label, x.reduce_s, x.reduce_calls);
    layer("backward allgather of dL/dy", gather, x.gather_s, x.gather_calls);
  }
  input_broadcast(w, c, b, c.gpus, B);
  memory_account(b, s, c, B, s.w - s.w_active + s.w_active / p, 1);
}

}  // namespace paradise::strategy::extended
