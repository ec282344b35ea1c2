// The activation memory of one GPU under a spatial split, layer by layer: each split layer's
// tensors as its largest tile, those a layer after the split saves whole, and the split
// convolutions' and pools' halos (cost-model-notes §1.4.2: x's halo received before FW and
// kept for the backward pass, dL/dy's before BW_data), released in autograd's order (§6.2).
#include <algorithm>
#include <span>
#include <vector>

#include "strategy_detail.hpp"

namespace paradise::strategy::detail {
namespace {

// The largest tile's share of a tensor of shape `s` split into `parts`: prod ceil(n/p) / n
// over its spatial dimensions.
double tile_share(const model::Shape& s, const Parts& parts) {
  double share = 1;
  for (std::size_t u = 0; u < static_cast<std::size_t>(s.rank); ++u) {
    const std::int64_t n = s.size[u], p = parts[u];
    if (p > 1 && n > 0) share *= static_cast<double>((n + p - 1) / p) / static_cast<double>(n);
  }
  return share;
}

// Elements per sample of the halo that the largest tile of shape `s` receives: k rows from
// each neighbour along each dimension cut (one neighbour when cut in two, two when in more):
// C (prod (t + k min(p - 1, 2)) - prod t) with t = ceil(n / p) (§1.4.2).
double halo_elements(const model::Shape& s, const Parts& parts, double k) {
  double tile = 1, padded = 1;
  for (std::size_t u = 0; u < static_cast<std::size_t>(s.rank); ++u) {
    const std::int64_t n = s.size[u], p = parts[u];
    const double t = static_cast<double>(p > 1 ? (n + p - 1) / p : n);
    tile *= t;
    padded *= t + (p > 1 ? k * static_cast<double>(std::min<std::int64_t>(p - 1, 2)) : 0.0);
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
    // a chain's: its output's gradient and its input's (kept as its input)
    const double g = static_cast<double>(l.backward_gradient_elements);
    gradients[i] = m.saves_inputs_as_own ? static_cast<double>(l.output_elements) * out +
                                               (g - static_cast<double>(l.output_elements)) *
                                                   (own ? tile_share(l.input, parts) : 1.0)
                                         : g * out;
    // x's halo, saved with its tile; dL/dy's, received where BW_data runs on a tile of it
    if (const double rows = halos && own ? halo_rows(l) : 0.0; rows > 0) {
      const double x_halo = halo_elements(l.input, parts, rows);
      t.halo += x_halo;
      released[i] += x_halo;
      const bool backward_data = m.saves_inputs_as_own ? i > 0 : l.backward_data_flops > 0;
      if (backward_data && out < 1) gradients[i] += halo_elements(l.output, parts, rows);
    }
    t.largest_pair =
        std::max(t.largest_pair, static_cast<double>(l.input_elements + l.output_elements) * out);
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

}  // namespace paradise::strategy::detail
