// The extended model's data parallelism: roofline compute of B/p samples per GPU, the
// gradient allreduce NCCL would pick, in buckets overlapped with the backward pass
// (docs/cost-model.md §overlap, §nccl), and memory by component (model state sharded over the
// replicas per the ZeRO stage).
#include "../memory/memory.hpp"
#include "extended.hpp"

namespace paradise::strategy::extended {

void data(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo) {
  if (!detail::batch_divides_among_gpus(c, b)) return;
  const double p = static_cast<double>(c.gpus), B = static_cast<double>(c.batch);
  const double per_gpu = B / p, samples = std::ceil(static_cast<double>(w.dataset_samples) / p);
  b.compute(compute_s(w, c, memo, samples, per_gpu, 1), samples / per_gpu);
  const double params = s.w;  // sum |w_l|: the model's parameters
  if (c.gpus > 1) {
    const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
    const auto x = overlapped_allreduce(w, c, c.gpus, params * element_bytes(c), iteration - bwd,
                                        bwd, s.gradient_ready);
    record(b, c, Exchange::Gradient, "gradient allreduce", x.label, "GE", c.gpus, x.total_s,
           x.calls);
    b.overlapped(x.total_s - x.exposed_s);
  }
  zero3_parameter_allgather(b, c, params, c.gpus, link_of(w, c.gpus, 0));
  memory_account(b, s, c, per_gpu, params, c.gpus);
}

}  // namespace paradise::strategy::extended
