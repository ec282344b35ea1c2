// What ParaDL's strategies share: the gradient allreduce, the split compute and halos
// (docs/cost-model.md §data-spatial, §paradl-spatial).
#include <cmath>

#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {

Builder::Step step(const Config& c) {
  return {static_cast<double>(c.activation_bytes), 0};
}

double gradient_allreduce(const Config& c, const system::Link& link, std::int64_t p, double bytes) {
  return cost::allreduce(c.gradient_allreduce, link, p, bytes);
}

std::string_view gradient_label(const Config& c) {
  return cost::allreduce_label(c.gradient_allreduce);
}

double split_time(const Workload& w, double q, int upto, int last) {
  double t = 0;
  for (int i = 0; i <= upto; ++i) {
    const auto u = static_cast<std::size_t>(i);
    t += w.layer_time_s[u] / (detail::marked_split(w, u, last) ? q : 1);
  }
  return t;
}

double full_halo_elements(const model::LayerStats& l) {
  double other = 1;
  for (int d = 1; d < l.input.rank; ++d)
    other *= static_cast<double>(l.input.size[static_cast<std::size_t>(d)]);
  return static_cast<double>(l.input.channels) * detail::halo_rows(l) * other;
}

double width_only_halo(const model::LayerStats& l, const system::Link& link, double samples,
                       double delta) {
  const auto width = [](const model::Shape& s) {
    return static_cast<double>(s.rank > 0 ? s.size[0] : 1);
  };
  const double k = detail::halo_rows(l);
  return 2 * cost::p2p(link, width(l.output) * k * samples * delta) +
         2 * cost::p2p(link, width(l.input) * k * samples * delta);
}

double split_activations(const Workload& w, int upto, int split, double q) {
  double act = 0;
  for (int i = 0; i <= upto; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const auto& l = w.model.layers[u];
    if (l.op == model::Op::Input) continue;
    act += static_cast<double>(l.input_elements + l.output_elements) /
           (detail::marked_split(w, u, split) ? q : 1);
  }
  return act;
}

}  // namespace paradise::strategy::paradl
