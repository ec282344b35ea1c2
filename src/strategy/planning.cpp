// The validity checks and split planning both cost models share (planning.hpp).
#include "planning.hpp"

#include <algorithm>
#include <numeric>

namespace paradise::strategy::detail {
namespace {

// The ways to split n ways: ParaDL splits W only ({n, 1, 1}); --spatial-split all writes n
// as every product pw x ph [x pd] over the input's spatial dimensions (TR Table III).
std::vector<Parts> spatial_factorizations(std::int64_t n, int rank, int dims) {
  if (dims < 2 || rank < 2) return {{n, 1, 1}};
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    divisors.push_back(d);
    if (d * d != n) divisors.push_back(n / d);
  }
  std::sort(divisors.begin(), divisors.end());
  std::vector<Parts> out;
  for (const std::int64_t a : divisors) {
    if (rank == 2 || dims == 2) {
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

// Whether a layer works voxel by voxel over a spatial split, up to a small reduction of
// statistics or of the loss's scalar: activations, dropout, the normalisations (their moments
// summed across the parts, as batch norm's) and the per-voxel losses (softmax cross-entropy,
// MSE, L1, Dice's three sums).
bool pointwise_over_a_split(model::Op op) {
  using model::Op;
  switch (op) {
    case Op::Activation:
    case Op::Dropout:
    case Op::BatchNorm:
    case Op::GroupNorm:
    case Op::InstanceNorm:
    case Op::LayerNorm:
    case Op::SoftmaxCrossEntropy:
    case Op::MSELoss:
    case Op::L1Loss:
    case Op::DiceLoss:
      return true;
    default:
      return false;
  }
}

// Where a split through every layer up to the last convolution ends: at the model's last
// layer when all after it work voxel by voxel (U-Net's segmentation head and loss), so
// nothing is gathered (the loss's scalar aside); else there.
int split_through_pointwise_tail(const Workload& w, int last) {
  for (std::size_t i = static_cast<std::size_t>(last) + 1; i < w.model.layers.size(); ++i) {
    if (!pointwise_over_a_split(w.model.layers[i].op)) return last;
  }
  return static_cast<int>(w.model.layers.size()) - 1;
}

// Why no split fits: the narrowest parallel layer, or with shorter splits, even the first
// convolution.
std::string why_no_split(const Workload& w, const std::vector<Parts>& ways,
                         std::array<std::int64_t, 3> extent, Parts parts, bool every_layer) {
  const int rank = w.model.input.rank;
  const bool first = !w.spatial_prefixes.empty();
  if (first) {
    extent = every_layer ? parallel_min_extent(w, w.spatial_prefixes.back().split, true)
                         : w.spatial_prefixes.back().min_extent;
    parts = spatial_parts(ways, extent, rank);
  }
  const auto u = static_cast<std::size_t>(std::max(too_narrow(parts, extent, rank), 0));
  return std::to_string(parts[u]) + " parts > the " + (first ? "" : "smallest ") + "extent " +
         std::to_string(extent[u]) + " of spatial dimension " + std::to_string(u + 1) + " of " +
         (first ? "the first parallel layer" : "the parallel layers");
}

}  // namespace

int last_active(const Workload& w) {
  int s = -1;
  for (std::size_t i = 0; i < w.active.size(); ++i) {
    if (w.active[i]) s = static_cast<int>(i);
  }
  return s;
}

bool one_gpu(const Config& c, Builder& b) {
  if (c.gpus != 1) b.invalid("serial runs on exactly 1 GPU");
  return c.gpus == 1;
}

bool batch_divides_among_gpus(const Config& c, Builder& b) {
  if (c.batch % c.gpus == 0) return true;
  b.invalid("batch " + std::to_string(c.batch) + " is not divisible by " + std::to_string(c.gpus) +
            " GPUs");
  return false;
}

bool model_parallel_fits(const Workload& w, const Config& c, Builder& b, bool filter) {
  std::int64_t limit = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (!w.active[i]) continue;
    const auto& l = w.model.layers[i];
    // Channel parallelism starts at the second layer: the first one's input is the data
    // (TR §V-A: C = 3 for ImageNet; ParaDL's minChannel skips layer 0).
    if (!filter && reads_the_data(w.model, i)) continue;
    const std::int64_t n = filter ? l.output.channels : l.input.channels;
    limit = limit == 0 ? n : std::min(limit, n);
  }
  if (limit == 0) {
    b.invalid("no layer is marked parallel in the layer configuration");
    return false;
  }
  if (c.gpus <= limit) return true;
  b.invalid(std::to_string(c.gpus) + " GPUs > the smallest " + (filter ? "filter" : "channel") +
            " count " + std::to_string(limit) + " of the parallel layers");
  return false;
}

bool data_filter_fits(const Workload& w, const Config& c, Builder& b) {
  std::int64_t min_filters = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (w.active[i])
      min_filters = min_filters == 0 ? w.model.layers[i].output.channels
                                     : std::min(min_filters, w.model.layers[i].output.channels);
  }
  // the model's limit first: no GPU count or batch lifts it
  if (min_filters == 0) {
    b.invalid("no layer is marked parallel in the layer configuration");
    return false;
  }
  const std::int64_t group = group_size(w, c);
  if (group <= min_filters) return true;
  b.invalid("p2 = " + std::to_string(group) + " > the smallest filter count " +
            std::to_string(min_filters));
  return false;
}

std::int64_t group_size(const Workload& w, const Config& c) {
  return c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
}

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

std::optional<std::int64_t> data_pipeline_stages(const Workload& w, const Config& c, Builder& b) {
  const std::int64_t stages = c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
  if (c.gpus % stages == 0) return stages;
  b.invalid(std::to_string(c.gpus) + " GPUs are not a multiple of " + std::to_string(stages) +
            " pipeline stages");
  return std::nullopt;
}

std::optional<PipelineShape> pipeline_shape(const Workload& w, const Config& c, Builder& b,
                                            std::int64_t stages, std::int64_t replicas) {
  PipelineShape s;
  // the model's layers without the input placeholder (only ever the first layer)
  s.first = !w.model.layers.empty() && w.model.layers[0].op == Op::Input ? 1 : 0;
  s.times =
      std::span<const double>(w.layer_time_s.data() + s.first, w.layer_time_s.size() - s.first);
  s.stages = stages;
  s.replicas = replicas;
  s.segments = c.segments > 0 ? c.segments : stages;
  if (static_cast<std::size_t>(stages) > s.times.size()) {
    b.invalid(std::to_string(stages) + " pipeline stages > " + std::to_string(s.times.size()) +
              " layers");
    return std::nullopt;
  }
  if (c.batch % (replicas * s.segments) != 0) {
    b.invalid("batch " + std::to_string(c.batch) + " is not divisible by " +
              (replicas > 1 ? std::to_string(replicas) + " replicas x " : std::string()) +
              std::to_string(s.segments) + " micro-batches");
    return std::nullopt;
  }
  // NOLINTNEXTLINE(bugprone-integer-division): exact, replicas divide the batch (checked above)
  s.batch = static_cast<double>(c.batch / replicas);
  return s;
}

std::vector<std::size_t> balanced_partition(std::span<const double> t, std::size_t parts) {
  // Greedy fill under a cap; `ends` only when asked (the bisection just counts groups).
  const auto fill = [&](double cap, std::vector<std::size_t>* ends) {
    std::size_t groups = 1;
    double sum = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (sum + t[i] > cap && sum > 0) {
        if (ends) ends->push_back(i);
        ++groups;
        sum = 0;
      }
      sum += t[i];
    }
    if (ends) ends->push_back(t.size());
    return groups;
  };
  double lo = *std::max_element(t.begin(), t.end());
  double hi = std::accumulate(t.begin(), t.end(), 0.0);
  for (int it = 0; it < 100 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = (lo + hi) / 2;
    (fill(mid, nullptr) <= parts ? hi : lo) = mid;
  }
  std::vector<std::size_t> ends;
  fill(hi, &ends);
  // Fewer groups than stages: split the longest groups; this never raises the bottleneck.
  while (ends.size() < parts) {
    std::size_t best = 0, begin = 0, best_begin = 0, best_len = 0;
    for (std::size_t g = 0; g < ends.size(); ++g) {
      if (ends[g] - begin > best_len) {
        best = g;
        best_len = ends[g] - begin;
        best_begin = begin;
      }
      begin = ends[g];
    }
    ends.insert(ends.begin() + static_cast<std::ptrdiff_t>(best), best_begin + best_len / 2);
  }
  return ends;
}

SpatialPlan plan_spatial_split(const Workload& w, std::int64_t n, int dims, bool every_layer) {
  SpatialPlan s;
  const int last = last_active(w);
  if (last < 0) {
    s.why_not = "no layer is marked parallel in the layer configuration";
    return s;
  }
  const int rank = w.model.input.rank;
  const auto ways = spatial_factorizations(n, rank, dims);
  // the layers that run split: the marked ones, or (split_whole_prefix) all up to the split
  const auto extent = parallel_min_extent(w, last, every_layer);
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
  s.why_not = why_no_split(w, ways, extent, s.parts, every_layer);
  return s;
}

std::optional<SpatialPlan> take_spatial_split(const Workload& w, Builder& b, std::int64_t n,
                                              int dims, bool every_layer) {
  auto plan = plan_spatial_split(w, n, dims, every_layer);
  if (plan.last < 0) {
    b.invalid(plan.why_not);
    return std::nullopt;
  }
  b.split_at(plan.last, plan.parts);
  return plan;
}

}  // namespace paradise::strategy::detail
