// ParaDL's data+filter (parallel_analysis.py analysis_hybrid_df; docs/cost-model.md §abci):
// filter parallelism inside groups of p2 GPUs (a node), data parallelism across the
// p1 = p/p2 groups, the cross-group exchange as the version of ParaDL's code has it.
#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {
namespace {

// The gradient allreduce across the p1 groups (ParadlVersion::df_exchange).
double cross_group_s(const Workload& w, const Config& c, const Totals& s, std::int64_t p1, double q,
                     double split_weights, double d) {
  system::Link net = w.system.link_for(c.gpus);
  double bytes = s.w * d;
  using HE = ParadlVersion::HybridExchange;
  const auto exchange = c.paradl.version.df_exchange;
  if (exchange == HE::Contention)
    net.beta_s_per_byte *= 2 * q;  // p2 flows share a NIC, PLX halves it
  if (exchange == HE::SplitContention) {
    net.beta_s_per_byte *= q;
    bytes = split_weights * d;
  }
  return gradient_allreduce(c, net, p1, bytes);
}

}  // namespace

void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  if (!detail::data_filter_fits(w, c, b)) return;
  const auto groups = detail::split_groups(w, c, b);
  if (!groups) return;
  const auto [p1, p2] = *groups;
  const double q = static_cast<double>(p2), d = b.delta();
  // NOLINTNEXTLINE(bugprone-integer-division): whole samples per group, floor(B / p1)
  const double per_group = static_cast<double>(c.batch / p1);
  const int last_layer = static_cast<int>(w.model.layers.size()) - 1;
  b.compute(b.iterations() * per_group * split_time(w, q, last_layer), b.iterations());
  const double split_weights = s.w - s.w_active + s.w_active / q;
  const system::Link node = w.system.link_for(p2);
  double layerwise = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (w.active[i])
      layerwise +=
          3 * (q - 1) *
          cost::p2p(node,
                    per_group * static_cast<double>(w.model.layers[i].output_elements) * d / q);
  }
  b.comm("filter allgather + allreduce in a group", "allgather+allreduce/ring", "FB", p2,
         layerwise);
  if (p1 > 1)
    b.comm("gradient allreduce across groups", gradient_label(c), "GE", p1,
           cross_group_s(w, c, s, p1, q, split_weights, d));
  b.memory("activations (x, y and their gradients)", 2 * d * per_group * (s.x + s.y));
  b.memory("weights and gradients", 2 * d * split_weights);
}

}  // namespace paradise::strategy::paradl
