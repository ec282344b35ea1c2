// The model state per parameter (docs/cost-model.md §model-state): weights, gradients, optimizer
// state; mixed precision keeps fp16 weights and gradients and an fp32 master copy; ZeRO shards
// them.
#include "state.hpp"

#include <algorithm>

#include "../extended/extended.hpp"
#include "memory.hpp"

namespace paradise::strategy::extended {

StateBytes state_bytes_per_param(const Config& c, std::int64_t data_parallel) {
  const double e = element_bytes(c), mixed = c.precision == Precision::Mixed ? 4 : 0;
  const double state = (c.optimizer == Optimizer::Adam       ? 8
                        : c.optimizer == Optimizer::Momentum ? 4
                                                             : 0) +
                       mixed;
  const double dp = static_cast<double>(std::max<std::int64_t>(1, data_parallel));
  const auto shard = [&](int stage) { return c.zero_stage >= stage ? dp : 1.0; };
  return {e / shard(3), e / shard(2), state / shard(1), data_parallel > 1 ? e / shard(2) : 0};
}

double model_state_bytes(const Config& c, double local_params, std::int64_t data_parallel) {
  const auto b = state_bytes_per_param(c, data_parallel);
  return local_params * (b.weights + b.gradients + b.optimizer + b.bucket);
}

}  // namespace paradise::strategy::extended
