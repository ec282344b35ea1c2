// Bucketed gradient exchange behind the backward pass (docs/cost-model.md §overlap), closed form.
#include "paradise/cost/overlap.hpp"

#include <algorithm>

namespace paradise::cost {

double bucketed_finish_s(double forward_s, double backward_s, double k, double bucket_s) {
  // i = 1: the first bucket's wait for every later one; i = k: the last bucket alone
  return forward_s + std::max(backward_s / k + k * bucket_s, backward_s + bucket_s);
}

}  // namespace paradise::cost
