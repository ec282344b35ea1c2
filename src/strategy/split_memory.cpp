// The activation memory of one GPU under a spatial split, layer by layer: each split layer's
// tensors as its largest tile, the tensors gathered after the split whole, and the split
// convolutions' halos (cost-model-notes §1.4.2: x's halo received before FW and kept for
// BW_weight, dL/dy's before BW_data), released in autograd's order (§6.2).
#include <algorithm>
#include <cmath>
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
  const auto& layers = w.model.layers;
  const std::size_t n = layers.size();
  const bool split_at_all = parts[0] * parts[1] * parts[2] > 1;
  const bool halos = split_at_all && c.policies.spatial_halo_memory;
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
    const bool split = runs_split(w, c, i, last);
    // the layer's own output's tile: its pooling indices, dropout masks, a per-voxel loss's
    // labels; its activations too unless a layer after the split reads them (gathered whole)
    fixed_share[i] = split ? tile_share(l.output, parts) : 1.0;
    const double f = split && l.last_reader <= last ? fixed_share[i] : 1.0;
    const double saved = static_cast<double>(l.saved_elements) * f;
    t.saved += saved;
    if (l.first_saver >= 0) released[static_cast<std::size_t>(l.first_saver)] += saved;
    t.saved_fixed_bytes += static_cast<double>(l.saved_fixed_bytes) * fixed_share[i];
    gradients[i] = static_cast<double>(l.backward_gradient_elements) * f;
    if (const double rows = halos && split ? halo_rows(l) : 0.0; rows > 0) {
      const double x_halo = halo_elements(l.input, parts, rows);
      t.halo += x_halo;
      released[i] += x_halo;
      gradients[i] += halo_elements(l.output, parts, rows);
    }
    t.largest_pair =
        std::max(t.largest_pair, static_cast<double>(l.input_elements + l.output_elements) * f);
    if (counts_for_memory(l)) {
      t.outputs += static_cast<double>(l.output_elements) * f;
    } else if (l.op != model::Op::Input) {
      t.largest_in_place = std::max(t.largest_in_place, static_cast<double>(l.output_elements) * f);
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
