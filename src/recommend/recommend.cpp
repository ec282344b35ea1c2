#include "paradise/recommend/recommend.hpp"

#include <algorithm>

#include "paradise/core/names.hpp"
#include "paradise/core/table.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::recommend {

using strategy::Kind;
using strategy::Status;

namespace {
constexpr NamePair<Objective> kObjectives[] = {{Objective::Time, "time"},
                                               {Objective::GpuHours, "gpu-hours"},
                                               {Objective::MemoryHeadroom, "memory-headroom"},
                                               {Objective::TimeToTrain, "time-to-train"},
                                               {Objective::GpuHoursToTrain, "gpu-hours-to-train"}};
}  // namespace

std::string_view objective_name(Objective o) {
  return name_in(kObjectives, o);
}

std::optional<Objective> objective_from_name(std::string_view name) {
  return value_in(kObjectives, name);
}

double Ranking::score(const Eval& e) const {
  switch (objective) {
    case Objective::Time:
      return e.epoch_s;
    case Objective::GpuHours:
      return e.gpu_hours();
    case Objective::MemoryHeadroom:
      return e.memory_bytes;  // headroom = usable - memory: less memory, more headroom
    case Objective::TimeToTrain:
      return e.time_to_train_s();
    case Objective::GpuHoursToTrain:
      return e.gpu_hours() * e.epochs_to_target;
  }
  return 0;
}

bool Ranking::operator()(const Eval& a, const Eval& b) const {
  const double sa = score(a), sb = score(b);
  if (sa != sb) return sa < sb;
  if (a.epoch_s != b.epoch_s) return a.epoch_s < b.epoch_s;
  if (a.gpus != b.gpus) return a.gpus < b.gpus;
  if (a.batch != b.batch) return a.batch < b.batch;
  return a.kind_index < b.kind_index;
}

std::vector<std::int64_t> gpu_counts(std::int64_t max) {
  std::vector<std::int64_t> v;
  for (std::int64_t g = 1; g <= max; g *= 2) {
    v.push_back(g);
    if (g > max / 2) break;  // no overflow for huge --max-gpus
  }
  if (v.back() != max) v.push_back(max);
  return v;
}

std::vector<std::int64_t> batch_values(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> v{lo};
  for (std::int64_t b = 1; b <= hi; b *= 2) {
    if (b > lo) v.push_back(b);
    if (b > hi / 2) break;
  }
  if (v.back() != hi) v.push_back(hi);
  return v;
}

bool Search::evaluated(Kind k, std::int64_t gpus) const {
  const bool has_serial = std::find(kinds.begin(), kinds.end(), Kind::Serial) != kinds.end();
  return k == Kind::Serial ? gpus == 1 : gpus != 1 || !has_serial;
}

std::vector<Eval> evaluate(const strategy::Workload& w, const strategy::LayerSums& sums,
                           strategy::Config base, const Search& s,
                           const std::vector<std::int64_t>& batches) {
  std::vector<Eval> out;
  out.reserve(s.kinds.size() * s.counts.size() * batches.size());
  strategy::Prediction p;
  for (std::size_t ki = 0; ki < s.kinds.size(); ++ki) {
    for (std::int64_t g : s.counts) {
      if (!s.evaluated(s.kinds[ki], g)) continue;
      for (std::int64_t b : batches) {
        base.kind = s.kinds[ki];
        base.gpus = g;
        base.batch = b;
        strategy::predict_into(w, sums, base, p);
        out.push_back({s.kinds[ki], ki, g, b, p.status, p.limit, p.epoch_time_s, p.epoch_compute_s,
                       p.epoch_communication_s, p.memory_per_gpu_bytes,
                       p.status == Status::Ok ? std::string() : p.reason, p.split_layer,
                       p.split_parts, s.epochs ? s.epochs->epochs(b) : 0, p.p2, p.segments});
        out.back().step_overhead_s = p.epoch_step_overhead_s;
        out.back().input_s = p.epoch_input_s;
      }
    }
  }
  return out;
}

namespace {

/// Each strategy of `s` that has no configuration among the ranked ones, with why_not().
std::vector<Loser> losers(const Recommendation& r, const Search& s, const Ranking& rank,
                          double usable_bytes) {
  const Eval* winner = r.ranked.empty() ? nullptr : &r.at(0);
  std::vector<Loser> out;
  for (std::size_t ki = 0; ki < s.kinds.size(); ++ki) {
    const bool listed = std::any_of(r.ranked.begin(), r.ranked.end(),
                                    [&](std::size_t i) { return r.evals[i].kind_index == ki; });
    if (listed) continue;
    std::vector<const Eval*> mine;
    for (const auto& e : r.evals) {
      if (e.kind_index == ki) mine.push_back(&e);
    }
    out.push_back({s.kinds[ki], why_not(mine, winner, rank, usable_bytes)});
  }
  return out;
}

}  // namespace

Recommendation recommend(const strategy::Workload& w, const strategy::Config& c, const Search& s) {
  const strategy::LayerSums sums = strategy::sum_layers(w);
  Recommendation r;
  r.evals = evaluate(w, sums, c, s, s.batches);
  const Ranking rank{s.objective};
  for (std::size_t i = 0; i < r.evals.size(); ++i) {
    if (r.evals[i].status == Status::Ok) r.ranked.push_back(i);
  }
  std::sort(r.ranked.begin(), r.ranked.end(),
            [&](std::size_t a, std::size_t b) { return rank(r.evals[a], r.evals[b]); });
  r.feasible = r.ranked.size();
  if (r.feasible == 0)
    r.changes =
        what_would_fit(w, sums, c, s, largest_smaller_batch(w, sums, c, s, s.batches.front()));
  if (r.ranked.size() > s.top) r.ranked.resize(s.top);
  r.losers = losers(r, s, rank, w.system.usable_memory_bytes());
  return r;
}

std::string config_text(const Eval& e) {
  return gpus_text(e.gpus) + ", batch " + std::to_string(e.batch);
}

}  // namespace paradise::recommend
