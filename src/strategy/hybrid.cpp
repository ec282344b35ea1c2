// ParaDL's spatial, data+filter and data+spatial strategies as its code computes them
// (cost-model-notes §1.4.2-1.4.3, §1.6.3; versions reconstructed from ParaDL's logs).
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "paradise/cost/collectives.hpp"
#include "strategy_detail.hpp"

namespace paradise::strategy::detail {
namespace {

double width(const model::Shape& s) {
  return static_cast<double>(s.rank > 0 ? s.size[0] : 1);
}

// C * floor((K-1)/2) * the extents of the spatial dimensions that are not split (W is).
double full_halo_elements(const model::LayerStats& l) {
  double other = 1;
  for (int d = 1; d < l.input.rank; ++d)
    other *= static_cast<double>(l.input.size[static_cast<std::size_t>(d)]);
  return static_cast<double>(l.input.channels) * halo_rows(l) * other;
}

// The halo exchange of one split layer (eq. (10) per split dimension): x and dL/dy, k rows
// to 2 neighbours along each dimension cut in two or more, each face C * k * the local
// extents of the other dimensions.
double split_halo_s(const model::LayerStats& l, const Parts& parts, const system::Link& link,
                    double samples, double bytes) {
  double t = 0;
  for (std::size_t u = 0; u < static_cast<std::size_t>(l.input.rank); ++u) {
    if (parts[u] < 2) continue;
    double face = static_cast<double>(l.input.channels) * halo_rows(l);
    for (std::size_t v = 0; v < static_cast<std::size_t>(l.input.rank); ++v) {
      if (v != u)
        face *= std::ceil(static_cast<double>(l.input.size[v]) / static_cast<double>(parts[v]));
    }
    t += 4 * cost::p2p(link, samples * face * bytes);
  }
  return t;
}

// The paradise variant's halo exchange of split layer i: along each dimension that two
// parts or more hold, x's rows from below and above before the forward pass and, where its
// backward computes dL/dx, dL/dy's before BW_data (model::window_halos: strides, padding and
// dilation), each a point-to-point message of C x rows x the tile's extents of the other
// dimensions; a GPU with neighbours on both sides receives all four, where two parts hold
// the tensor each has one neighbour, and the slower of the two sides counts.
double paradise_halo_s(const Workload& w, std::size_t i, const Parts& parts,
                       const system::Link& link, double samples, double bytes) {
  const auto& l = w.model.layers[i];
  if (!l.halos.x_odd.any() && !l.halos.dy_odd.any()) return 0;  // no window beyond its tile
  const bool backward_data = computes_input_gradient(w.model, i);
  const auto rank = static_cast<std::size_t>(l.input.rank);
  double t = 0;
  for (std::size_t u = 0; u < rank; ++u) {
    const std::int64_t q = filled_parts(l.input.size[u], parts[u]);
    if (q < 2) continue;
    const auto face = [&](const model::Shape& s) {
      double f = static_cast<double>(s.channels);
      for (std::size_t v = 0; v < rank; ++v)
        if (v != u) f *= static_cast<double>(tile_extent(s.size[v], parts[v]));
      return f;
    };
    const double x = face(l.input), dy = backward_data ? face(l.output) : 0.0;
    const auto message = [&](std::int64_t rows, double f) {
      return rows > 0 && f > 0 ? cost::p2p(link, samples * f * static_cast<double>(rows) * bytes)
                               : 0.0;
    };
    const std::int64_t tx = tile_extent(l.input.size[u], parts[u]);
    const auto &xr = l.halos.x_rows(u, tx), &yr = l.halos.dy_rows(u, tx);
    const double below = message(xr.below[u], x) + message(yr.below[u], dy);
    const double above = message(xr.above[u], x) + message(yr.above[u], dy);
    t += q == 2 ? std::max(below, above) : below + above;
  }
  return t;
}

// The old W-only halo (§1.4.3): 2(a + W(y)k delta b) + 2(a + W(x)k delta b) per layer.
double width_only_halo(const model::LayerStats& l, const system::Link& link, double samples,
                       double delta) {
  const double k = halo_rows(l);
  return 2 * cost::p2p(link, width(l.output) * k * samples * delta) +
         2 * cost::p2p(link, width(l.input) * k * samples * delta);
}

int last_active(const Workload& w) {
  int s = -1;
  for (std::size_t i = 0; i < w.active.size(); ++i) {
    if (w.active[i]) s = static_cast<int>(i);
  }
  return s;
}

// Whether layer i is split: marked parallel and not after a spatial split's last layer.
bool split_layer(const Workload& w, std::size_t i, int last) {
  return w.active[i] && static_cast<int>(i) <= last;
}

// sum over layers l <= upto of t_l, divided by q for the parallel layers (up to `last`)
double split_time(const Workload& w, double q, int upto, int last = kAllLayers) {
  double t = 0;
  for (int i = 0; i <= upto; ++i) {
    const auto u = static_cast<std::size_t>(i);
    t += w.layer_time_s[u] / (split_layer(w, u, last) ? q : 1);
  }
  return t;
}

std::string_view gradient_label(const Config& c) {
  return cost::allreduce_label(c.gradient_allreduce);
}

std::int64_t group_size(const Workload& w, const Config& c) {
  return c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
}

// p = p1 x p2 for the hybrids: p2 GPUs per group (a node by default), p1 groups that each
// take batch / p1 samples; nullopt (and the point marked invalid) when they do not divide.
std::optional<std::pair<std::int64_t, std::int64_t>> split_groups(const Workload& w,
                                                                  const Config& c, Builder& b) {
  const std::int64_t p2 = group_size(w, c);
  if (c.gpus % p2 != 0) {
    b.invalid(std::to_string(c.gpus) +
              " GPUs are not a multiple of the group size p2 = " + std::to_string(p2));
    return std::nullopt;
  }
  const std::int64_t p1 = c.gpus / p2;
  if (c.batch % p1 != 0) {
    b.invalid("batch " + std::to_string(c.batch) + " is not divisible by " + std::to_string(p1) +
              " groups");
    return std::nullopt;
  }
  return std::pair{p1, p2};
}

// The paradise variant of data+filter: NCCL's in-group collectives per layer, and the
// cross-group exchange of each GPU's 1/p2 of the gradients (its filters' and a share of the
// replicated layers') in buckets overlapped with the backward pass and its collectives.
void paradise_data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b,
                          std::int64_t p1, std::int64_t p2, double per_group,
                          double split_weights) {
  const auto x = paradise_layer_collectives(w, c, p2, per_group, true);
  b.comm("forward allgather of y in a group", "allgather/ring", "FB", p2, x.gather_s);
  b.comm("backward reduction of dL/dx's partial sums in a group", x.reduce_label, "FB", p2,
         x.reduce_s);
  if (p1 > 1) {
    const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
    const auto g = overlapped_exchange(
        c, s.w / static_cast<double>(p2) * element_bytes(c), iteration - bwd + x.gather_s,
        bwd + x.reduce_s, [&](double n) { return cross_group_exchange(w, c, p1, p2, n); },
        s.gradient_ready);
    b.comm("gradient allreduce across groups", g.label, "GE", p1, g.total_s);
    b.overlapped(g.total_s - g.exposed_s);
  }
  // p2 concurrent communicators of one GPU per group share the nodes' adapters
  zero3_parameter_allgather(
      b, c, split_weights, p1,
      paradise_link(w, c.gpus, p2 > 1 ? std::min(p2, w.system.gpus_per_node) : 0));
  paradise_memory(b, s, c, per_group, split_weights, p1);
}

// The paradise variant of data+spatial: halos and the split layer's allgather over the
// group's direct link (NCCL point-to-point, GPUDirect), and the gradient exchange per bucket
// (reduce-scatter in the group, p2 concurrent allreduces of 1/p2 across the groups, allgather
// in the group; or the leader form) overlapped with the backward pass.
void paradise_data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b,
                           std::int64_t p1, std::int64_t p2, double per_group, int split,
                           const Parts& parts) {
  const system::Link link = paradise_link(w, p2, 0);
  const double e = element_bytes(c), q = static_cast<double>(p2);
  double halo = 0;
  for (std::size_t i = 0; static_cast<int>(i) <= split; ++i) {
    if (runs_split(w, c, i, split)) halo += paradise_halo_s(w, i, parts, link, per_group, e);
  }
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", p2, halo);
  const double ys = per_group * gathered_after_split(w, split) * e;
  // forward only: the replicated layers give every GPU the split layer's whole dL/dy
  if (ys > 0)
    b.comm("allgather of the split layer's output", "allgather/ring", "FB", p2,
           cost::allgather_ring(link, p2, ys));
  const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
  const auto g = overlapped_exchange(
      c, s.w * e, iteration - bwd + halo / 2, bwd + halo / 2,
      [&](double n) -> GradientExchange {
        if (p1 == 1) return {cost::allreduce_ring(link, p2, n), "reduce-scatter+allgather/ring"};
        const auto x = cross_group_exchange(w, c, p1, p2, n / q);
        // the leader form's reduce and broadcast are in the group; a group of one has none
        if (c.policies.leader_reduce || p2 == 1) return x;
        return {cost::allreduce_ring(link, p2, n) + x.seconds, "allreduce/two-level"};
      },
      s.gradient_ready);
  b.comm("gradient allreduce (in the group, across groups)", g.label, "GE", c.gpus, g.total_s);
  b.overlapped(g.total_s - g.exposed_s);
  zero3_parameter_allgather(b, c, s.w, c.gpus, paradise_link(w, c.gpus, 0));
  const TileActivations tile = tile_activations(w, c, parts, split);
  paradise_memory(b, s, c, per_group, s.w, c.gpus, std::nullopt, &tile);
}

// The ways to split n ways: ParaDL splits W only ({n, 1, 1}); --spatial-split all writes n
// as every product pw x ph [x pd] over the input's spatial dimensions (TR Table III).
std::vector<Parts> spatial_factorizations(std::int64_t n, int rank, bool all_dims) {
  if (!all_dims || rank < 2) return {{n, 1, 1}};
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    divisors.push_back(d);
    if (d * d != n) divisors.push_back(n / d);
  }
  std::sort(divisors.begin(), divisors.end());
  std::vector<Parts> out;
  for (const std::int64_t a : divisors) {
    if (rank == 2) {
      out.push_back({a, n / a, 1});
      continue;
    }
    for (const std::int64_t b : divisors) {
      if ((n / a) % b == 0) out.push_back({a, b, n / a / b});
    }
  }
  return out;
}

// The first spatial dimension that a split into `parts` cuts finer than one row per GPU,
// or -1.
int too_narrow(const Parts& parts, const std::array<std::int64_t, 3>& extent, int rank) {
  for (int u = 0; u < std::max(rank, 1); ++u) {
    if (parts[static_cast<std::size_t>(u)] > extent[static_cast<std::size_t>(u)]) return u;
  }
  return -1;
}

// The split of `extent` among `ways`: one that cuts no dimension finer than a row, with the
// thickest thinnest slab (the most rows per GPU along its most divided dimension: the
// smallest halo faces relative to the work); ties go to more parts along W, then H. If none
// fits, the thickest one, whose too narrow dimension says why.
Parts spatial_parts(const std::vector<Parts>& ways, const std::array<std::int64_t, 3>& extent,
                    int rank) {
  const auto thinnest = [&](const Parts& p) {
    double t = static_cast<double>(extent[0]) / static_cast<double>(p[0]);
    for (std::size_t u = 1; u < static_cast<std::size_t>(std::max(rank, 1)); ++u)
      t = std::min(t, static_cast<double>(extent[u]) / static_cast<double>(p[u]));
    return t;
  };
  const Parts* best = &ways.front();
  for (const Parts& p : ways) {
    const bool fits = too_narrow(p, extent, rank) < 0,
               best_fits = too_narrow(*best, extent, rank) < 0;
    if (fits != best_fits) {
      if (fits) best = &p;
      continue;
    }
    const double t = thinnest(p), bt = thinnest(*best);
    if (t > bt || (t == bt && p > *best)) best = &p;
  }
  return *best;
}

// A spatial split n ways: its last split layer (-1 and why, if none fits) and its parts per
// dimension. With the default layer config it stops before the convolutions too narrow to
// split so many ways (Workload::spatial_prefixes); a layer config is followed as it is.
struct SpatialSplit {
  int last = -1;
  Parts parts{1, 1, 1};
  std::string why_not;
};
// Where a split through every layer up to the last convolution ends: at the model's last
// layer when all after it work voxel by voxel (activations, norms, dropout, a per-voxel loss:
// U-Net's segmentation loss), so nothing is gathered (the loss's scalar aside); else there.
int split_through_pointwise_tail(const Workload& w, int last) {
  for (std::size_t i = static_cast<std::size_t>(last) + 1; i < w.model.layers.size(); ++i) {
    const auto op = w.model.layers[i].op;
    if (op != model::Op::Activation && op != model::Op::BatchNorm && op != model::Op::Dropout &&
        op != model::Op::SoftmaxCrossEntropy)
      return last;
  }
  return static_cast<int>(w.model.layers.size()) - 1;
}

SpatialSplit plan_spatial_split(const Workload& w, std::int64_t n, bool all_dims,
                                bool every_layer) {
  SpatialSplit s;
  const int last = last_active(w);
  if (last < 0) {
    s.why_not = "no layer is marked parallel in the layer configuration";
    return s;
  }
  const int rank = w.model.input.rank;
  const auto ways = spatial_factorizations(n, rank, all_dims);
  // the layers that run split: the marked ones, or (split_whole_prefix) all up to the split
  auto extent = parallel_min_extent(w, last, every_layer);
  s.parts = spatial_parts(ways, extent, rank);
  if (too_narrow(s.parts, extent, rank) < 0) {
    s.last = every_layer ? split_through_pointwise_tail(w, last) : last;
    return s;
  }
  for (const auto& p : w.spatial_prefixes) {
    const auto e = every_layer ? parallel_min_extent(w, p.split, true) : p.min_extent;
    const auto parts = spatial_parts(ways, e, rank);
    if (too_narrow(parts, e, rank) < 0) {
      s.last = p.split;
      s.parts = parts;
      return s;
    }
  }
  // why: the narrowest parallel layer, or with shorter splits, even the first convolution
  const bool first = !w.spatial_prefixes.empty();
  if (first) {
    extent = every_layer ? parallel_min_extent(w, w.spatial_prefixes.back().split, true)
                         : w.spatial_prefixes.back().min_extent;
    s.parts = spatial_parts(ways, extent, rank);
  }
  const auto u = static_cast<std::size_t>(std::max(too_narrow(s.parts, extent, rank), 0));
  s.why_not = std::to_string(s.parts[u]) + " parts > the " + (first ? "" : "smallest ") +
              "extent " + std::to_string(extent[u]) + " of spatial dimension " +
              std::to_string(u + 1) + " of " +
              (first ? "the first parallel layer" : "the parallel layers");
  return s;
}

}  // namespace

// Pure spatial (parallel_analysis.py analysis_spatial): active layers split p ways along W.
void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  const auto plan = plan_spatial_split(w, c.gpus, c.spatial_all_dims, splits_every_layer(c));
  if (plan.last < 0) return b.invalid(plan.why_not);
  const int split = plan.last;
  const auto& parts = plan.parts;
  b.split_at(split, parts);
  const double p = static_cast<double>(c.gpus), B = static_cast<double>(c.batch), d = b.delta();
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(paradise(c) ? paradise_compute(w, c, D, B, p, split)
                        : D * split_time(w, p, static_cast<int>(w.model.layers.size()) - 1, split),
            D / B);
  const system::Link link = paradise(c) ? paradise_link(w, c.gpus, 0) : w.system.link_for(c.gpus);
  double halo = 0;  // on one GPU there is no neighbour to exchange a halo with
  for (int i = 0; c.gpus > 1 && i <= split; ++i) {
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    if (!runs_split(w, c, static_cast<std::size_t>(i), split)) continue;
    if (paradise(c)) {
      halo += paradise_halo_s(w, static_cast<std::size_t>(i), parts, link, B, d);
      continue;
    }
    if (halo_rows(l) <= 0) continue;
    if (c.spatial_all_dims) {
      halo += split_halo_s(l, parts, link, B, d);
    } else {
      // ParaDL's code: one sample's W-only halo; fixed: all B samples' halo
      halo += c.fix_paradl_bugs ? 4 * cost::p2p(link, B * full_halo_elements(l) * d)
                                : width_only_halo(l, link, 1, d);
    }
  }
  const double ys =
      static_cast<double>(w.model.layers[static_cast<std::size_t>(split)].output_elements);
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", c.gpus, halo);
  if (paradise(c)) {
    // NCCL's ring allgather forward, of every split tensor the layers after the split read;
    // those replicated layers give every GPU the whole dL/dy, whose own part it just takes
    if (const double gathered = B * gathered_after_split(w, split) * d; gathered > 0)
      b.comm("allgather of the split layer's output", "allgather/ring", "FB", c.gpus,
             cost::allgather_ring(link, c.gpus, gathered));
    const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
    const auto x =
        overlapped_allreduce(w, c, c.gpus, s.w * element_bytes(c), iteration - bwd + halo / 2,
                             bwd + halo / 2, s.gradient_ready);
    b.comm("gradient allreduce", x.label, "GE", c.gpus, x.total_s);
    b.overlapped(x.total_s - x.exposed_s);
  } else {
    b.comm("allgather of the split layer's output", "allgather/ring", "FB", c.gpus,
           2 * (p - 1) * cost::p2p(link, B * ys * d / p));
    b.comm("gradient allreduce", gradient_label(c), "GE", c.gpus,
           cost::allreduce(c.gradient_allreduce, link, c.gpus, s.w * d));
  }
  double act = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    const auto& l = w.model.layers[i];
    // ReLU and batch norm counted: ParaDL's spatial logs need it (its data memory skips them)
    if (l.op == model::Op::Input) continue;
    act += static_cast<double>(l.input_elements + l.output_elements) /
           (split_layer(w, i, split) ? p : 1);
  }
  if (paradise(c)) {
    zero3_parameter_allgather(b, c, s.w, c.gpus, paradise_link(w, c.gpus, 0));
    const TileActivations tile = tile_activations(w, c, parts, split);
    return paradise_memory(b, s, c, B, s.w, c.gpus, std::nullopt, &tile);
  }
  b.memory("activations (x, y and their gradients)", 2 * d * B * act);
  b.memory("weights and gradients", 2 * d * s.w);
}

// Data+filter (analysis_hybrid_df): filter parallelism inside groups of p2 GPUs (a node),
// data parallelism across the p1 = p/p2 groups.
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  std::int64_t min_filters = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (w.active[i])
      min_filters = min_filters == 0 ? w.model.layers[i].output.channels
                                     : std::min(min_filters, w.model.layers[i].output.channels);
  }
  // the model's limit first: no GPU count or batch lifts it
  if (min_filters == 0) return b.invalid("no layer is marked parallel in the layer configuration");
  if (const std::int64_t group = group_size(w, c); group > min_filters)
    return b.invalid("p2 = " + std::to_string(group) + " > the smallest filter count " +
                     std::to_string(min_filters));
  const auto groups = split_groups(w, c, b);
  if (!groups) return;
  const auto [p1, p2] = *groups;
  const double q = static_cast<double>(p2), d = b.delta();
  const double per_group = static_cast<double>(c.batch / p1);
  b.compute(paradise(c) ? paradise_compute(w, c, b.iterations() * per_group, per_group, q)
                        : b.iterations() * per_group *
                              split_time(w, q, static_cast<int>(w.model.layers.size()) - 1),
            b.iterations());
  const double split_weights = s.w - s.w_active + s.w_active / q;
  if (paradise(c)) return paradise_data_filter(w, c, s, b, p1, p2, per_group, split_weights);
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
  if (p1 > 1) {
    system::Link net = w.system.link_for(c.gpus);
    double bytes = s.w * d;
    using HE = ParadlVersion::HybridExchange;
    if (c.paradl.df_exchange == HE::Contention)
      net.beta_s_per_byte *= 2 * q;  // p2 flows share a NIC, PLX halves it
    if (c.paradl.df_exchange == HE::SplitContention) {
      net.beta_s_per_byte *= q;
      bytes = split_weights * d;
    }
    b.comm("gradient allreduce across groups", gradient_label(c), "GE", p1,
           cost::allreduce(c.gradient_allreduce, net, p1, bytes));
  }
  b.memory("activations (x, y and their gradients)", 2 * d * per_group * (s.x + s.y));
  b.memory("weights and gradients", 2 * d * split_weights);
}

// Data+spatial (analysis_hybrid_ds): spatial parallelism of the first layers (up to the
// split layer s) inside groups of p2 GPUs, data parallelism across the p1 groups.
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  // the group splits the width p2 ways (ParaDL), or every spatial dimension (paradise only)
  if (c.spatial_all_dims && !paradise(c))
    return b.invalid(
        "ParaDL's data+spatial splits the width only: --spatial-split all needs "
        "the paradise variant");
  const auto groups = split_groups(w, c, b);
  if (!groups) return;
  const auto [p1, p2] = *groups;
  const auto plan = plan_spatial_split(w, p2, c.spatial_all_dims, splits_every_layer(c));
  if (plan.last < 0) return b.invalid(plan.why_not);
  const int split = plan.last;
  b.split_at(split, plan.parts);
  const auto& v = c.paradl;
  const double q = static_cast<double>(p2), d = b.delta();
  const double per_group = static_cast<double>(c.batch / p1);
  // ParaDL's loops stop at the split layer (§1.9.4), as with its own .lc files; a split the
  // default layer config cut short counts the replicated layers after it (ours, not ParaDL's)
  const int upto = c.fix_paradl_bugs || split < last_active(w)
                       ? static_cast<int>(w.model.layers.size()) - 1
                       : split;
  const double t = split_time(w, q, upto, split);
  if (paradise(c)) {
    b.compute(paradise_compute(w, c, b.iterations() * per_group, per_group, q, split),
              b.iterations());
    return paradise_data_spatial(w, c, s, b, p1, p2, per_group, split, plan.parts);
  }
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(v.ds_compute_uses_iterations ? b.iterations() * per_group * t
                                         : D / static_cast<double>(p1) * t,
            v.ds_compute_uses_iterations ? b.iterations() : D / static_cast<double>(c.batch));
  // Halo and gather go through the host without GPUDirect, the group's flows sharing PCIe.
  const system::Link host = w.system.link_for(p2, true);
  system::Link halo_link{host.alpha_s, host.beta_s_per_byte * 2 * q, 0};
  if (v.ds_halo_link_override) halo_link = {v.ds_halo_alpha_s, v.ds_halo_beta_s_per_byte, 0};
  const double halo_samples = v.ds_halo_one_sample ? 1 : per_group;
  double halo = 0;
  for (int i = 0; i <= split; ++i) {
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    if (v.ds_width_only_halo) {
      if (halo_rows(l) > 0)
        halo += width_only_halo(l, halo_link, halo_samples, d);  // all layers up to s
    } else if (w.active[static_cast<std::size_t>(i)]) {
      halo += 4 * cost::p2p(halo_link, halo_samples * full_halo_elements(l) * d);
    }
  }
  b.comm("halo exchange of x and dL/dy", "p2p", "FB", p2, halo);
  const double ys =
      per_group *
      static_cast<double>(w.model.layers[static_cast<std::size_t>(split)].output_elements) * d;
  system::Link gather_link{host.alpha_s, host.beta_s_per_byte * 2, 0};
  if (v.ds_width_only_halo) gather_link = halo_link;
  const double gathered = (v.ds_width_only_halo || v.ds_gather_divided_by_p2) ? ys / q : ys;
  b.comm("allgather of the split layer's output (+ its gradient)", "allgather/ring", "FB", p2,
         2 * (q - 1) * cost::p2p(gather_link, gathered));
  b.comm("gradient allreduce in a group", gradient_label(c), "GE", p2,
         cost::allreduce(c.gradient_allreduce, w.system.link_for(p2), p2, s.w * d));
  if (p1 > 1) {
    system::Link net = w.system.link_for(c.gpus);
    net.beta_s_per_byte *= v.ds_global_beta_factor > 0 ? v.ds_global_beta_factor : 2 * q;
    b.comm("gradient allreduce across groups", gradient_label(c), "GE", p1,
           cost::allreduce(c.gradient_allreduce, net, p1, s.w * d));
  }
  double act = 0;
  for (int i = 0; i <= upto; ++i) {
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    // ReLU and batch norm counted, as in ParaDL's data+spatial logs
    if (l.op == model::Op::Input) continue;
    act += static_cast<double>(l.input_elements + l.output_elements) /
           (split_layer(w, static_cast<std::size_t>(i), split) ? q : 1);
  }
  b.memory("activations (x, y and their gradients)", 2 * d * per_group * act);
  b.memory("weights and gradients", 2 * d * s.w);
}

}  // namespace paradise::strategy::detail
