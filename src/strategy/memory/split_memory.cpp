// The activation memory of one GPU under a spatial split, layer by layer: each split layer's
// tensors as its largest tile, those a layer after the split saves whole, and the split
// convolutions' and pools' halos (docs/cost-model.md §spatial-halo: x's halo received before FW and
// kept for the backward pass, dL/dy's before BW_data), released in autograd's order
// (docs/cost-model.md §split-memory).
#include <algorithm>
#include <span>
#include <vector>

#include "../extended/extended.hpp"
#include "memory.hpp"

namespace paradise::strategy::extended {
namespace {

using detail::computes_input_gradient;
using detail::tile_extent;

// The largest tile's share of a tensor of shape `s` split into `parts`: prod ceil(n/p) / n
// over its spatial dimensions.
double tile_share(const model::Shape& s, const Parts& parts) {
  double share = 1;
  for (std::size_t u = 0; u < static_cast<std::size_t>(s.rank); ++u) {
    const std::int64_t n = s.size[u];
    if (parts[u] > 1 && n > 0)
      share *= static_cast<double>(tile_extent(n, parts[u])) / static_cast<double>(n);
  }
  return share;
}

// Elements per sample of split layer l's halo, of x (its input) or of dL/dy (its output),
// on the tile that holds the most with it: per dimension the largest of a full tile t with
// both neighbours' rows (three parts or more hold some), t with the rows from above and the
// last part, n - t, with those from below (two), or t alone (one: no neighbour); C (prod
// that - prod t) (docs/cost-model.md §spatial-halo). The rows per dimension as x's tile there lines
// up with the stride.
double halo_elements(const model::LayerStats& l, const Parts& parts, bool dy) {
  const model::Shape& s = dy ? l.output : l.input;
  double tile = 1, padded = 1;
  for (std::size_t u = 0; u < static_cast<std::size_t>(s.rank); ++u) {
    const std::int64_t n = s.size[u], t = tile_extent(n, parts[u]);
    tile *= static_cast<double>(t);
    if (t >= n || t <= 0) {  // one part holds it all: no neighbour
      padded *= static_cast<double>(t);
      continue;
    }
    const std::int64_t tx = tile_extent(l.input.size[u], parts[u]);
    const auto& rows = dy ? l.halos.dy_rows(u, tx) : l.halos.x_rows(u, tx);
    const std::int64_t extent = n > 2 * t ? t + rows.below[u] + rows.above[u]  // 3 parts or more
                                          : std::max(t + rows.above[u], n - t + rows.below[u]);
    padded *= static_cast<double>(extent);
  }
  return static_cast<double>(s.channels) * (padded - tile);
}

}  // namespace

TileActivations tile_activations(const Workload& w, const Config& c, const Parts& parts, int last) {
  const auto& m = w.model;
  const auto& layers = m.layers;
  const std::size_t n = layers.size();
  const bool halos = parts[0] * parts[1] * parts[2] > 1 && c.policies.spatial_halo_memory;
  const auto split = [&](std::int32_t i) {
    return runs_split(w, c, static_cast<std::size_t>(i), last);
  };
  const auto all_split = [&](const std::vector<std::int32_t>& v, std::int32_t from,
                             std::int32_t to) {
    return std::all_of(v.begin() + from, v.begin() + to, split);
  };
  TileActivations t;
  // per layer: the elements its backward releases (the buffers whose first saver it is, at
  // their own share, and its own x halo), its fixed bytes' share, the gradients alive in it;
  // kept per thread, so that a sweep allocates nothing per point
  thread_local std::vector<double> scratch;
  scratch.assign(3 * n, 0.0);
  const std::span<double> released(scratch.data(), n), fixed_share(scratch.data() + n, n),
      gradients(scratch.data() + 2 * n, n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& l = layers[i];
    const auto at = static_cast<std::int32_t>(i);
    const bool own = split(at);
    // its own output's tile: pooling indices, dropout masks, a per-voxel loss's labels
    fixed_share[i] = own ? tile_share(l.output, parts) : 1.0;
    // the output as its readers hold it and its gradient comes back: a tile only if every
    // reader runs split (else gathered whole: gathered_after_split)
    const double out = own && all_split(m.readers, m.reader_begin[i], m.reader_begin[i + 1])
                           ? fixed_share[i]
                           : 1.0;
    // the saved buffer as its savers keep it: a chain's is its input, a tile where the
    // layer runs split; a graph's its output (aliases' savers included), a tile only if
    // every saver runs split (a tensor read after the split by layers that save nothing,
    // an add, is kept as the tile)
    const double kept =
        m.saves_inputs_as_own
            ? (own ? tile_share(l.input, parts) : 1.0)
            : (own && all_split(m.savers, m.saver_begin[i], m.saver_begin[i + 1]) ? fixed_share[i]
                                                                                  : 1.0);
    const double saved = static_cast<double>(l.saved_elements) * kept;
    t.saved += saved;
    if (l.first_saver >= 0) released[static_cast<std::size_t>(l.first_saver)] += saved;
    t.saved_fixed_bytes += static_cast<double>(l.saved_fixed_bytes) * fixed_share[i];
    // the gradients alive in its backward: those pending as it begins (its output's and
    // skips' held from later layers) as its output is held, and those it makes, dL/dx, as
    // its input is: a tile where it runs split (a chain's pending: its output's gradient)
    const double in = own ? tile_share(l.input, parts) : 1.0;
    const auto pending = static_cast<double>(l.pending_gradient_elements);
    const double made = static_cast<double>(l.backward_gradient_elements) - pending;
    gradients[i] = l.backward_gradient_elements > 0 ? pending * out + std::max(made, 0.0) * in : 0;
    // x's halo, saved with its tile; dL/dy's, received where BW_data runs on a tile of it
    if (halos && own && (l.halos.x_odd.any() || l.halos.dy_odd.any())) {
      const double x_halo = halo_elements(l, parts, false);
      t.halo += x_halo;
      released[i] += x_halo;
      if (computes_input_gradient(m, i) && out < 1) gradients[i] += halo_elements(l, parts, true);
    }
    t.largest_pair = std::max(t.largest_pair, static_cast<double>(l.input_elements) * in +
                                                  static_cast<double>(l.output_elements) * out);
    if (counts_for_memory(l)) {
      t.outputs += static_cast<double>(l.output_elements) * out;
    } else if (l.op != model::Op::Input) {
      t.largest_in_place =
          std::max(t.largest_in_place, static_cast<double>(l.output_elements) * out);
    }
  }
  // the gradients' peak beyond the saved activations, as gradient_peak_bytes (workload.cpp)
  const double e = element_bytes(c);
  double gone = 0;
  for (std::size_t k = n; k-- > 0;) {
    t.gradient_peak_bytes = std::max(t.gradient_peak_bytes, e * gradients[k] - gone);
    gone += e * released[k] + released_fixed_bytes(layers[k]) * fixed_share[k];
  }
  return t;
}

}  // namespace paradise::strategy::extended
