#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

// cost-model-notes §1.5 step 2: comp_l = totalComp * flop_l / sum(flop), flop_l = 2 FW + |w|
// (for .net models, forward + backward FLOPs are stored exactly that way).
std::vector<double> spread_by_flops(const model::ModelStats& m, double time_per_sample_s) {
  std::vector<double> flops;
  double total = 0;
  for (const auto& l : m.layers) {
    flops.push_back(l.forward_flops + l.backward_data_flops + l.backward_weight_flops);
    total += flops.back();
  }
  std::vector<double> t;
  for (double f : flops) t.push_back(total > 0 ? time_per_sample_s * f / total : 0.0);
  return t;
}

std::vector<bool> default_active_layers(const model::ModelStats& m) {
  std::vector<bool> a;
  for (const auto& l : m.layers) a.push_back(l.op == model::Op::Conv);
  return a;
}

}  // namespace paradise::strategy
