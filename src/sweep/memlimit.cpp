#include "paradise/sweep/memlimit.hpp"

#include <algorithm>
#include <map>

#include "paradise/core/error.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::sweep {
namespace {

using strategy::Status;

// Largest x in [lo, hi] with fits(x), for a predicate true up to a point then false;
// lo - 1 when fits(lo) is false.
template <class Fits>
std::int64_t last_true(std::int64_t lo, std::int64_t hi, Fits&& fits) {
  if (!fits(lo)) return lo - 1;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

}  // namespace

strategy::Workload ResolutionFamily::native() const {
  strategy::Workload w = strategy::make_workload(spec);
  w.system = system::with_overrides(w.system, overrides);
  return w;
}

strategy::Workload ResolutionFamily::make(std::int64_t side) const {
  if (!model::ModelSource::load(spec.model).reshapeable())
    throw InputError("model '" + spec.model +
                     "' has a fixed input shape (ParaDL .net file): no resolution search");
  strategy::WorkloadSpec s = spec;
  s.dataset = model::dataset_at_side(spec.dataset, side, samples_at_side);
  strategy::Workload w = strategy::make_workload(s);
  w.system = system::with_overrides(w.system, overrides);
  return w;
}

std::string ResolutionFamily::no_side_reason() const {
  const auto src = model::ModelSource::load(spec.model);
  if (!src.reshapeable()) return "model '" + spec.model + "' has a fixed input shape";
  const model::Dataset d = model::find_dataset(spec.dataset);
  if (d.sample.rank != src.default_input().rank)
    return "model '" + spec.model + "' takes " + std::to_string(src.default_input().rank) +
           "-D inputs, dataset '" + spec.dataset + "' has " + std::to_string(d.sample.rank) +
           "-D samples";
  return {};
}

std::optional<strategy::Workload> ResolutionFamily::at(std::int64_t side, bool* too_large) const {
  if (too_large) *too_large = false;
  try {
    return make(side);
  } catch (const SizeLimitError&) {
    if (too_large) *too_large = true;
    return std::nullopt;
  } catch (const InputError&) {
    return std::nullopt;  // the model cannot take inputs this small (or of this size)
  }
}

std::int64_t batch_step(const strategy::Workload& w, const strategy::Config& c) {
  using strategy::Kind;
  if (strategy::searches_p2(c.kind, c.p2) && c.gpus >= 1) {
    // auto: one group of every GPU divides the most batches (some group size divides them)
    strategy::Config one_group = c;
    one_group.p2 = c.gpus;
    return batch_step(w, one_group);
  }
  // micro-batches: as given, one per sample under auto (micro-batches of one sample divide
  // every batch), or as many as stages
  const bool searched = strategy::searches_segments(c.kind, c.segments);
  const auto micro = [&](std::int64_t stages) {
    return c.segments > 0 ? c.segments : searched ? 1 : stages;
  };
  switch (c.kind) {
    case Kind::Data:
    case Kind::Daso:
      return c.gpus;
    case Kind::Pipeline:
      return micro(c.gpus);
    case Kind::DataPipeline: {
      const std::int64_t stages = c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
      return c.gpus % stages == 0 ? c.gpus / stages * micro(stages) : 0;
    }
    case Kind::DataFilter:
    case Kind::DataSpatial: {
      const std::int64_t p2 = c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
      return c.gpus % p2 == 0 ? c.gpus / p2 : 0;
    }
    default:
      return 1;
  }
}

Limit largest_batch(const strategy::Workload& w, strategy::Config c, std::int64_t lo,
                    std::int64_t hi, const strategy::LayerSums* sums, strategy::ComputeMemo* memo) {
  Limit r;
  if (strategy::searches_p2(c.kind, c.p2)) {
    // auto: the largest over the group sizes it tries (each its own multiples)
    for (const auto p2 : strategy::searched_group_sizes(c.gpus)) {
      strategy::Config x = c;
      x.p2 = p2;
      const Limit l = largest_batch(w, x, lo, hi, sums, memo);
      r.value = std::max(r.value, l.value);
      r.evaluations += l.evaluations;
    }
    return r;
  }
  // auto micro-batches: a batch's best (micro-batches of one sample hold the fewest
  // activations, min(B / replicas, stages) samples in flight, never fewer at a larger batch)
  const std::int64_t step = batch_step(w, c);
  if (step < 1) return r;  // no batch can be valid: GPUs not a multiple of the group
  const strategy::LayerSums own = sums ? strategy::LayerSums{} : strategy::sum_layers(w);
  strategy::Prediction p;
  // B = k * step divides evenly for every k, and memory grows with k: bisect on k.
  const std::int64_t k_lo = std::max<std::int64_t>(1, (lo + step - 1) / step);
  const std::int64_t k_hi = hi / step;
  if (k_hi < k_lo) return r;
  const auto ok = [&](std::int64_t k) {
    ++r.evaluations;
    c.batch = k * step;
    strategy::predict_into(w, sums ? *sums : own, c, p, memo);
    return p.status == Status::Ok;
  };
  const std::int64_t k = last_true(k_lo, k_hi, ok);
  r.value = k >= k_lo ? k * step : 0;
  return r;
}

Limit largest_resolution(const ResolutionFamily& f, const strategy::Config& c, std::int64_t lo,
                         std::int64_t hi, std::int64_t step) {
  if (!f.no_side_reason().empty()) return {};  // no side to try
  return largest_side(
      [&](std::int64_t side) {
        bool too_large = false;
        const auto w = f.at(side, &too_large);
        if (!w) return SideOutcome{.too_large = too_large, .untaken = !too_large};
        const auto p = strategy::predict(*w, c);
        return SideOutcome{p.status, p.split_layer};
      },
      lo, hi, step);
}

Limit largest_side(const std::function<SideOutcome(std::int64_t)>& at, std::int64_t lo,
                   std::int64_t hi, std::int64_t step) {
  if (step < 1) throw InputError("resolution step must be >= 1");
  Limit r;
  if (hi < lo) return r;
  // Sides lo + k step, each predicted once.
  std::map<std::int64_t, SideOutcome> seen;
  const auto outcome = [&](std::int64_t k) -> const SideOutcome& {
    auto it = seen.find(k);
    if (it == seen.end()) {
      ++r.evaluations;
      it = seen.emplace(k, at(lo + k * step)).first;
    }
    return it->second;
  };
  // Sides past the supported tensor sizes are the top of the range (a monotone property):
  // the search starts below them, else it would step down through each one.
  std::int64_t highest = (hi - lo) / step;
  if (outcome(highest).too_large)
    highest =
        last_true(std::int64_t{0}, highest, [&](std::int64_t k) { return !outcome(k).too_large; });
  // Runs of sides with the same split, from the top down: a split never shrinks as the side
  // grows, and within a run memory grows with the side. Below the model's smallest input
  // every side is invalid, not out of memory: "not out of memory" is the monotone predicate.
  for (std::int64_t top = highest; top >= 0;) {
    const int split = outcome(top).split_layer;
    std::int64_t bottom = 0;  // the run's lowest side (no split: one run)
    for (std::int64_t upper = top; split >= 0 && bottom < upper;) {
      const std::int64_t mid = bottom + (upper - bottom) / 2;
      if (outcome(mid).split_layer >= split) {
        upper = mid;
      } else {
        bottom = mid + 1;
      }
    }
    const std::int64_t fit = last_true(
        bottom, top, [&](std::int64_t k) { return outcome(k).status != Status::OutOfMemory; });
    // the largest feasible side at or below the boundary: past sides the model cannot take,
    // not past a strategy's constraint (a batch the GPUs cannot divide is so at every side;
    // walking down through each of them took 10^6 predictions for a range of 10^6)
    for (std::int64_t k = fit; k >= bottom; --k) {
      const SideOutcome& o = outcome(k);
      if (o.status == Status::Ok) {
        r.value = lo + k * step;
        return r;
      }
      if (o.status == Status::Invalid && !o.untaken) break;
    }
    top = bottom - 1;
  }
  return r;
}

FoundSide first_side(std::int64_t lo, std::int64_t hi, std::int64_t step,
                     const std::function<SideTaken(std::int64_t)>& taken) {
  std::int64_t side = lo;
  for (int tried = 0; tried < 4096; ++tried) {
    const SideTaken t = taken(side);
    if (t != SideTaken::No) return {side, t == SideTaken::TooLarge, false};
    if (side > hi - step) return {0, false, true};
    side += step;
  }
  return {};
}

bool batch_at_search_end(const strategy::Workload& w, const strategy::Config& c, std::int64_t value,
                         std::int64_t hi) {
  if (value <= 0) return false;  // nothing fits: no limit to bound
  if (strategy::searches_p2(c.kind, c.p2)) {
    // auto: a bound if a group size that fits `value` has its next batch past the range
    for (const auto p2 : strategy::searched_group_sizes(c.gpus)) {
      strategy::Config x = c;
      x.p2 = p2;
      x.batch = value;
      if (batch_at_search_end(w, x, value, hi) && strategy::predict(w, x).status == Status::Ok)
        return true;
    }
    return false;
  }
  const std::int64_t step = batch_step(w, c);
  return step < 1 || value > hi - step;  // value + step > hi, without overflow
}

bool side_at_search_end(std::int64_t value, std::int64_t hi, std::int64_t step,
                        const std::function<SideTaken(std::int64_t)>& taken) {
  if (value <= 0) return false;
  if (value > hi - step) return true;  // the range's last side
  const FoundSide next = first_side(value + step, hi, step, taken);
  return next.side == 0 && next.exhausted;  // only sides the model cannot take follow
}

FoundSide last_side(std::int64_t lo, std::int64_t hi, std::int64_t step,
                    const std::function<SideTaken(std::int64_t)>& taken) {
  if (lo > hi || step < 1) return {0, false, true};
  // sides lo + i * step, i in [0, n]; "too large" holds from some index on
  std::int64_t n = (hi - lo) / step, top = n;
  if (taken(lo) == SideTaken::TooLarge) return {lo, true, false};
  if (taken(lo + n * step) == SideTaken::TooLarge) {
    std::int64_t fits = 0, past = n;  // taken(fits) is not too large, taken(past) is
    while (past - fits > 1) {
      const std::int64_t mid = fits + (past - fits) / 2;
      (taken(lo + mid * step) == SideTaken::TooLarge ? past : fits) = mid;
    }
    top = fits;
  }
  for (std::int64_t i = top, tried = 0; i >= 0 && tried < 4096; --i, ++tried)
    if (taken(lo + i * step) == SideTaken::Yes) return {lo + i * step, false, false};
  return {0, false, top < 4096};
}

Limit fewest_gpus(const strategy::Workload& w, strategy::Config c,
                  const std::vector<std::int64_t>& gpus) {
  Limit r;
  const auto sums = strategy::sum_layers(w);
  strategy::Prediction p;
  for (std::int64_t g : gpus) {
    c.gpus = g;
    ++r.evaluations;
    strategy::predict_into(w, sums, c, p);
    if (p.status == Status::Ok) return r.value = g, r;
  }
  return r;
}

}  // namespace paradise::sweep
