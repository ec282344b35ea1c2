// ParaDL's spatial parallelism (parallel_analysis.py analysis_spatial; docs/cost-model.md
// §spatial-halo): the parallel layers split p ways along W, their halos exchanged with the
// neighbours, the split layer's output allgathered, the gradients allreduced.
#include <cmath>

#include "paradise/cost/collectives.hpp"
#include "paradl.hpp"

namespace paradise::strategy::paradl {
namespace {

// The halo exchange of one split layer (eq. (10) per split dimension): x and dL/dy, k rows
// to 2 neighbours along each dimension cut in two or more, each face C * k * the local
// extents of the other dimensions.
double split_halo_s(const model::LayerStats& l, const detail::Parts& parts,
                    const system::Link& link, double samples, double bytes) {
  double t = 0;
  for (std::size_t u = 0; u < static_cast<std::size_t>(l.input.rank); ++u) {
    if (parts[u] < 2) continue;
    double face = static_cast<double>(l.input.channels) * detail::halo_rows(l);
    for (std::size_t v = 0; v < static_cast<std::size_t>(l.input.rank); ++v) {
      if (v != u)
        face *= std::ceil(static_cast<double>(l.input.size[v]) / static_cast<double>(parts[v]));
    }
    t += 4 * cost::p2p(link, samples * face * bytes);
  }
  return t;
}

// The halo exchange of the split layers up to `split`, per iteration of B samples.
double halo_s(const Workload& w, const Config& c, const detail::Parts& parts, int split,
              const system::Link& link, double B, double d) {
  double halo = 0;  // on one GPU there is no neighbour to exchange a halo with
  for (int i = 0; c.gpus > 1 && i <= split; ++i) {
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    if (!detail::marked_split(w, static_cast<std::size_t>(i), split) || detail::halo_rows(l) <= 0)
      continue;
    if (c.spatial_split != SpatialSplit::W) {
      halo += split_halo_s(l, parts, link, B, d);
    } else {
      // ParaDL's code: one sample's W-only halo; fixed: all B samples' halo
      halo += c.paradl.fix_bugs ? 4 * cost::p2p(link, B * full_halo_elements(l) * d)
                                : width_only_halo(l, link, 1, d);
    }
  }
  return halo;
}

}  // namespace

void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  const auto plan = detail::take_spatial_split(
      w, b, c.gpus, spatial_split_dims(c.spatial_split, w.model.input.rank), false);
  if (!plan) return;
  const int split = plan->last, last_layer = static_cast<int>(w.model.layers.size()) - 1;
  const double p = static_cast<double>(c.gpus), B = static_cast<double>(c.batch), d = b.delta();
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(D * split_time(w, p, last_layer, split), D / B);
  const system::Link link = w.system.link_for(c.gpus);
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", c.gpus,
         halo_s(w, c, plan->parts, split, link, B, d));
  const double ys =
      static_cast<double>(w.model.layers[static_cast<std::size_t>(split)].output_elements);
  b.comm("allgather of the split layer's output", "allgather/ring", "FB", c.gpus,
         2 * (p - 1) * cost::p2p(link, B * ys * d / p));
  b.comm("gradient allreduce", gradient_label(c), "GE", c.gpus,
         gradient_allreduce(c, link, c.gpus, s.w * d));
  // ReLU and batch norm counted: ParaDL's spatial logs need it (its data memory skips them)
  b.memory("activations (x, y and their gradients)",
           2 * d * B * split_activations(w, last_layer, split, p));
  b.memory("weights and gradients", 2 * d * s.w);
}

}  // namespace paradise::strategy::paradl
