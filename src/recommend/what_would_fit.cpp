// When nothing fits: the settings that save memory, each alone and together, and the
// largest smaller batch.
#include <algorithm>
#include <functional>

#include "paradise/recommend/recommend.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::recommend {

using strategy::Kind;
using strategy::Status;

std::int64_t largest_smaller_batch(const strategy::Workload& w, const strategy::LayerSums& sums,
                                   strategy::Config c, const Search& s, std::int64_t below) {
  std::int64_t best = 0;
  if (below <= 1) return best;
  for (const Kind k : s.kinds) {
    for (const std::int64_t g : s.counts) {
      if (!s.evaluated(k, g)) continue;  // as evaluated
      c.kind = k;
      c.gpus = g;
      best = std::max(best, sweep::largest_batch(w, c, 1, below - 1, &sums).value);
    }
  }
  return best;
}

namespace {

/// A memory-saving setting: its options as written and how it changes a Config.
struct Setting {
  std::string options;
  std::function<void(strategy::Config&)> apply;
};

/// The settings of `c` that save memory and are not chosen yet, in the order tried.
std::vector<Setting> memory_settings(const strategy::Workload& w, const strategy::Config& c,
                                     const std::vector<Kind>& kinds) {
  const bool paradise = c.variant == strategy::Variant::Paradise;
  const auto has = [&](Kind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  std::vector<Setting> out;
  // mixed precision halves activations (not with layer times measured at another precision)
  if (paradise && c.precision != strategy::Precision::Mixed &&
      strategy::precision_mismatch(w, strategy::Precision::Mixed).empty())
    out.push_back({"--precision mixed", [](strategy::Config& x) {
                     x.precision = strategy::Precision::Mixed;
                     x.precision_by_default = false;
                   }});
  if (paradise && !c.recompute_activations)
    out.push_back({"--recompute", [](strategy::Config& x) { x.recompute_activations = true; }});
  const bool parallel =
      std::any_of(kinds.begin(), kinds.end(), [](Kind k) { return k != Kind::Serial; });
  if (paradise && parallel && c.zero_stage < 3)  // sharding needs more than one GPU
    out.push_back({"--zero 3", [](strategy::Config& x) { x.zero_stage = 3; }});
  // every spatial dimension split: spatial under both variants, data+spatial under paradise
  if ((c.spatial_split == strategy::SpatialSplit::W ||
       c.spatial_split == strategy::SpatialSplit::HW) &&
      (has(Kind::Spatial) || (paradise && has(Kind::DataSpatial))))
    out.push_back({"--spatial-split all",
                   [](strategy::Config& x) { x.spatial_split = strategy::SpatialSplit::All; }});
  return out;
}

}  // namespace

std::vector<Change> what_would_fit(const strategy::Workload& w, const strategy::LayerSums& sums,
                                   const strategy::Config& c, const Search& s,
                                   std::int64_t smaller_batch) {
  const Ranking rank{s.objective};
  const auto outcome = [&](std::string options, const strategy::Config& x,
                           const std::vector<std::int64_t>& batches) {
    Change ch{std::move(options), 0, std::nullopt};
    for (const auto& e : evaluate(w, sums, x, s, batches)) {
      if (e.status != Status::Ok) continue;
      ++ch.feasible;
      if (!ch.best || rank(e, *ch.best)) ch.best = e;
    }
    return ch;
  };
  std::vector<Change> out;
  strategy::Config all = c;
  std::string all_options;
  const auto settings = memory_settings(w, c, s.kinds);
  for (const auto& setting : settings) {  // each alone, the rest as given
    strategy::Config one = c;
    setting.apply(one);
    setting.apply(all);
    out.push_back(outcome(setting.options, one, s.batches));
    all_options += (all_options.empty() ? "" : " ") + setting.options;
  }
  if (settings.size() > 1) out.push_back(outcome(all_options, all, s.batches));
  if (smaller_batch > 0) {
    out.push_back(outcome("--batch " + std::to_string(smaller_batch), c, {smaller_batch}));
  } else if (s.batches.front() > 1) {  // every batch below the smallest tried, by search
    out.push_back({"--batch 1 to " + std::to_string(s.batches.front() - 1), 0, std::nullopt});
  }
  return out;
}

}  // namespace paradise::recommend
