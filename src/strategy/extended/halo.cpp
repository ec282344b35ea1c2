// The extended model's halo exchange of a split layer (docs/cost-model.md §spatial-halo, with
// model::window_halos: strides, padding and dilation).
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {

// Along each dimension that two parts or more hold, x's rows from below and above before the
// forward pass and, where its backward computes dL/dx, dL/dy's before BW_data, each a
// point-to-point message of C x rows x the tile's extents of the other dimensions; a GPU
// with neighbours on both sides receives all four, where two parts hold the tensor each has
// one neighbour, and the slower of the two sides counts.
double halo_s(const Workload& w, const Config& c, std::size_t i, const Parts& parts,
              const system::Link& link, bool across_nodes, double samples, double bytes,
              double& messages) {
  const auto& l = w.model.layers[i];
  if (!l.halos.x_odd.any() && !l.halos.dy_odd.any()) return 0;  // no window beyond its tile
  const bool backward_data = detail::computes_input_gradient(w.model, i);
  const auto rank = static_cast<std::size_t>(l.input.rank);
  const double overhead = rule(c, Exchange::Halo).overhead_s;
  double t = 0;
  for (std::size_t u = 0; u < rank; ++u) {
    const std::int64_t q = detail::filled_parts(l.input.size[u], parts[u]);
    if (q < 2) continue;
    const auto face = [&](const model::Shape& s) {
      double f = static_cast<double>(s.channels);
      for (std::size_t v = 0; v < rank; ++v)
        if (v != u) f *= static_cast<double>(detail::tile_extent(s.size[v], parts[v]));
      return f;
    };
    const double x = face(l.input), dy = backward_data ? face(l.output) : 0.0;
    struct Side {
      double s = 0, calls = 0;
    };
    const auto message = [&](std::int64_t rows, double f) {
      if (rows <= 0 || f <= 0) return Side{};
      const double n = samples * f * static_cast<double>(rows) * bytes;
      return Side{send_s(w, c, Exchange::Halo, link, across_nodes, n) + overhead, 1};
    };
    const std::int64_t tx = detail::tile_extent(l.input.size[u], parts[u]);
    const auto &xr = l.halos.x_rows(u, tx), &yr = l.halos.dy_rows(u, tx);
    const Side bx = message(xr.below[u], x), by = message(yr.below[u], dy);
    const Side ax = message(xr.above[u], x), ay = message(yr.above[u], dy);
    const Side below{bx.s + by.s, bx.calls + by.calls}, above{ax.s + ay.s, ax.calls + ay.calls};
    if (q == 2) {
      const Side& slower = below.s >= above.s ? below : above;
      t += slower.s;
      messages += slower.calls;
    } else {
      t += below.s + above.s;
      messages += below.calls + above.calls;
    }
  }
  return t;
}

namespace {

// The split layers' share of the step's compute (their measured or FLOP-based time per
// sample over all layers'): what an overlapped halo exchange may hide behind.
double split_share(const Workload& w, const Config& c, int last) {
  double split = 0, all = 0;
  for (std::size_t i = 0; i < w.layer_time_s.size(); ++i) {
    all += w.layer_time_s[i];
    if (runs_split(w, c, i, last)) split += w.layer_time_s[i];
  }
  return all > 0 ? split / all : 0;
}

}  // namespace

double spatial_exchanges(const Workload& w, const Config& c, const detail::SpatialPlan& plan,
                         std::int64_t group, const system::Link& link, double samples, double bytes,
                         Builder& b) {
  double halo = 0, messages = 0;  // in a group of one there is no neighbour for a halo
  const bool across = group > w.system.gpus_per_node;
  for (int i = 0; group > 1 && i <= plan.last; ++i) {
    if (runs_split(w, c, static_cast<std::size_t>(i), plan.last))
      halo += halo_s(w, c, static_cast<std::size_t>(i), plan.parts, link, across, samples, bytes,
                     messages);
  }
  record(b, c, Exchange::Halo, "halo exchange of x and dL/dy", "p2p", "FB", group, halo, messages);
  // exchanged beside the tiles' interior (Dryden et al. 2019): hidden up to the split layers'
  // compute
  if (rule(c, Exchange::Halo).overlapped)
    b.overlapped(std::min(halo, b.iteration_compute_s() * split_share(w, c, plan.last)));
  // a ring allgather (Patarasuk & Yuan 2009), of every split tensor read after the split
  if (const double gathered = samples * gathered_after_split(w, plan.last) * bytes; gathered > 0)
    record(b, c, Exchange::Gather, "allgather of the split layer's output",
           collective_label(w, c, Exchange::Gather, Collective::Allgather, group, group), "FB",
           group,
           collective_s(w, c, Exchange::Gather, Collective::Allgather, group, group, 0, gathered) +
               rule(c, Exchange::Gather).overhead_s,
           1);
  return halo;
}

}  // namespace paradise::strategy::extended
