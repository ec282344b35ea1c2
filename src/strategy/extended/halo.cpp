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
double halo_s(const Workload& w, std::size_t i, const Parts& parts, const system::Link& link,
              double samples, double bytes) {
  const auto& l = w.model.layers[i];
  if (!l.halos.x_odd.any() && !l.halos.dy_odd.any()) return 0;  // no window beyond its tile
  const bool backward_data = detail::computes_input_gradient(w.model, i);
  const auto rank = static_cast<std::size_t>(l.input.rank);
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
    const auto message = [&](std::int64_t rows, double f) {
      return rows > 0 && f > 0 ? cost::p2p(link, samples * f * static_cast<double>(rows) * bytes)
                               : 0.0;
    };
    const std::int64_t tx = detail::tile_extent(l.input.size[u], parts[u]);
    const auto &xr = l.halos.x_rows(u, tx), &yr = l.halos.dy_rows(u, tx);
    const double below = message(xr.below[u], x) + message(yr.below[u], dy);
    const double above = message(xr.above[u], x) + message(yr.above[u], dy);
    t += q == 2 ? std::max(below, above) : below + above;
  }
  return t;
}

double spatial_exchanges(const Workload& w, const Config& c, const detail::SpatialSplit& plan,
                         std::int64_t group, const system::Link& link, double samples, double bytes,
                         Builder& b) {
  double halo = 0;  // in a group of one there is no neighbour to exchange a halo with
  for (int i = 0; group > 1 && i <= plan.last; ++i) {
    if (runs_split(w, c, static_cast<std::size_t>(i), plan.last))
      halo += halo_s(w, static_cast<std::size_t>(i), plan.parts, link, samples, bytes);
  }
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", group, halo);
  // NCCL's ring allgather (Patarasuk & Yuan 2009), of every split tensor read after the split
  if (const double gathered = samples * gathered_after_split(w, plan.last) * bytes; gathered > 0)
    b.comm("allgather of the split layer's output", "allgather/ring", "FB", group,
           cost::allgather_ring(link, group, gathered));
  return halo;
}

}  // namespace paradise::strategy::extended
