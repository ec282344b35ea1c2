// The extended model's data+pipeline (HyPar-Flow, docs/cost-model.md §data-pipeline): p =
// partitions x replicas, a replica's partitions on p2 consecutive GPUs (default: one node), each
// stage's replicas allreducing its gradients (pipeline.cpp).
#include "extended.hpp"

namespace paradise::strategy::extended {

void data_pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo*) {
  const auto stages = detail::data_pipeline_stages(w, c, b);
  if (!stages) return;
  pipeline_of(w, c, s, b, *stages, c.gpus / *stages);
}

}  // namespace paradise::strategy::extended
