// ParaDL's data+spatial (parallel_analysis.py analysis_hybrid_ds; docs/cost-model.md §spatial-halo,
// §paradl-spatial): spatial parallelism of the first layers (up to the split layer s) inside groups
// of p2 GPUs along W, data parallelism across the p1 groups; halo and gather through the
// host, as the version of ParaDL's code has them (ParadlVersion).
#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {
namespace {

// The halo exchange up to the split layer: x and dL/dy through the host without GPUDirect,
// the group's flows sharing PCIe.
double halo_s(const Workload& w, const Config& c, int split, const system::Link& link,
              double samples, double d) {
  const auto& v = c.paradl.version;
  double halo = 0;
  for (int i = 0; i <= split; ++i) {
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    if (v.ds_width_only_halo) {
      if (detail::halo_rows(l) > 0)
        halo += width_only_halo(l, link, samples, d);  // all layers up to s
    } else if (w.active[static_cast<std::size_t>(i)]) {
      halo += 4 * cost::p2p(link, samples * full_halo_elements(l) * d);
    }
  }
  return halo;
}

// The halo, the split layer's allgather and the gradient allreduces in and across groups.
void communication(const Workload& w, const Config& c, const Totals& s, Builder& b, std::int64_t p1,
                   std::int64_t p2, double per_group, int split) {
  const auto& v = c.paradl.version;
  const double q = static_cast<double>(p2), d = b.delta();
  const system::Link host = w.system.link_for(p2, true);
  system::Link halo_link{host.alpha_s, host.beta_s_per_byte * 2 * q, 0};
  if (v.ds_halo_link_override) halo_link = {v.ds_halo_alpha_s, v.ds_halo_beta_s_per_byte, 0};
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", p2,
         halo_s(w, c, split, halo_link, v.ds_halo_one_sample ? 1 : per_group, d));
  const double ys =
      per_group *
      static_cast<double>(w.model.layers[static_cast<std::size_t>(split)].output_elements) * d;
  system::Link gather_link{host.alpha_s, host.beta_s_per_byte * 2, 0};
  if (v.ds_width_only_halo) gather_link = halo_link;
  const double gathered = (v.ds_width_only_halo || v.ds_gather_divided_by_p2) ? ys / q : ys;
  b.comm("allgather of the split layer's output (+ its gradient)", "allgather/ring", "FB", p2,
         2 * (q - 1) * cost::p2p(gather_link, gathered));
  b.comm("gradient allreduce in a group", gradient_label(c), "GE", p2,
         gradient_allreduce(c, w.system.link_for(p2), p2, s.w * d));
  if (p1 > 1) {
    system::Link net = w.system.link_for(c.gpus);
    net.beta_s_per_byte *= v.ds_global_beta_factor > 0 ? v.ds_global_beta_factor : 2 * q;
    b.comm("gradient allreduce across groups", gradient_label(c), "GE", p1,
           gradient_allreduce(c, net, p1, s.w * d));
  }
}

}  // namespace

void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  // the group splits the width p2 ways (ParaDL); every spatial dimension: paradise only
  if (c.spatial_split != SpatialSplit::W)
    return b.invalid("ParaDL's data+spatial splits the width only: --spatial-split " +
                     std::string(spatial_split_name(c.spatial_split)) +
                     " needs the paradise variant");
  const auto groups = detail::split_groups(w, c, b);
  if (!groups) return;
  const auto [p1, p2] = *groups;
  const auto plan = detail::take_spatial_split(w, b, p2, 1, false);
  if (!plan) return;
  const int split = plan->last;
  const double q = static_cast<double>(p2), d = b.delta();
  // NOLINTNEXTLINE(bugprone-integer-division): whole samples per group, floor(B / p1)
  const double per_group = static_cast<double>(c.batch / p1);
  // ParaDL's loops stop at the split layer (docs/cost-model.md §paradl-quirks), as with its own .lc
  // files; a split the default layer config cut short counts the replicated layers after it (ours,
  // not ParaDL's)
  const int upto = c.paradl.fix_bugs || split < detail::last_active(w)
                       ? static_cast<int>(w.model.layers.size()) - 1
                       : split;
  const double t = split_time(w, q, upto, split);
  const double D = static_cast<double>(w.dataset_samples);
  const bool by_iterations = c.paradl.version.ds_compute_uses_iterations;
  b.compute(by_iterations ? b.iterations() * per_group * t : D / static_cast<double>(p1) * t,
            by_iterations ? b.iterations() : D / static_cast<double>(c.batch));
  communication(w, c, s, b, p1, p2, per_group, split);
  // ReLU and batch norm counted, as in ParaDL's data+spatial logs
  b.memory("activations (x, y and their gradients)",
           2 * d * per_group * split_activations(w, upto, split, q));
  b.memory("weights and gradients", 2 * d * s.w);
}

}  // namespace paradise::strategy::paradl
