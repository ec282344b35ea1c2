#include "paradise/sweep/memlimit_tables.hpp"

#include <algorithm>
#include <stdexcept>

#include "paradise/core/error.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::sweep {
namespace {

std::vector<Axis> without(const std::vector<Axis>& axes, const std::string& name) {
  std::vector<Axis> out;
  for (const auto& a : axes) {
    if (a.name != name) out.push_back(a);
  }
  return out;
}

}  // namespace

std::vector<MemlimitTable> memlimit_tables(const Grid& grid, const MemlimitSpec& spec) {
  using Kind = MemlimitTable::Kind;
  const auto& axes = grid.axes();
  std::vector<MemlimitTable> tables;
  const auto add = [&](std::string name, std::string description, std::vector<Axis> a, Kind kind) {
    MemlimitTable t{
        std::move(name), std::move(description), std::move(a), 1, kind != Kind::FewestGpus, kind};
    for (const auto& x : t.axes) t.entries *= x.size();
    tables.push_back(std::move(t));
  };
  if (spec.batch) {
    if (spec.batch_lo < 1 || spec.batch_hi < spec.batch_lo)
      throw InputError("memory-limit batch range " + std::to_string(spec.batch_lo) + ".." +
                       std::to_string(spec.batch_hi) + " is empty or below 1");
    add("largest_batch",
        "largest feasible global batch in " + std::to_string(spec.batch_lo) + ".." +
            std::to_string(spec.batch_hi) +
            " (0: none fits; -1: the model cannot take the samples, e.g. at this resolution)",
        without(axes, "batch"), Kind::LargestBatch);
  }
  if (spec.resolution) {
    if (spec.resolution_lo < 1 || spec.resolution_hi < spec.resolution_lo ||
        spec.resolution_step < 1)
      throw InputError("memory-limit resolution range is empty, below 1 or has a step below 1");
    add("largest_resolution",
        "largest feasible input side (cube edge for 3-D data) in " +
            std::to_string(spec.resolution_lo) + ".." + std::to_string(spec.resolution_hi) +
            " step " + std::to_string(spec.resolution_step) +
            " (0: none fits; -1: the model takes no side of the range)",
        without(axes, "resolution"), Kind::LargestResolution);
  }
  if (!spec.sides.empty()) {
    for (std::int64_t s : spec.sides) {
      if (s < 1) throw InputError("memory-limit side " + std::to_string(s) + " is below 1");
    }
    std::vector<Axis> a = without(without(axes, "gpus"), "resolution");
    a.insert(a.begin() + 2, Axis{"side", {}, spec.sides});  // after model, dataset
    add("fewest_gpus",
        "fewest GPUs of the gpus axis at which the side fits (0: none; -1: the model cannot "
        "take the side)",
        std::move(a), Kind::FewestGpus);
  }
  return tables;
}

MemlimitSearch::MemlimitSearch(const Evaluator& e, const MemlimitSpec& spec)
    : e_(e), spec_(spec), tables_(memlimit_tables(e.grid(), spec)) {
  if (spec.sides.empty()) return;
  for (const auto& x : e.grid().axes()) {
    if (x.name == "gpus") gpus_ascending_ = x.values;
  }
  std::sort(gpus_ascending_.begin(), gpus_ascending_.end());
  gpus_ascending_.erase(std::unique(gpus_ascending_.begin(), gpus_ascending_.end()),
                        gpus_ascending_.end());
}

std::uint64_t MemlimitSearch::grid_index(const MemlimitTable& t, std::uint64_t e,
                                         std::int64_t* side) const {
  // coordinates over the table's axes, last fastest
  std::vector<std::uint64_t> tc(t.axes.size());
  for (std::size_t j = t.axes.size(); j-- > 0;) {
    tc[j] = e % t.axes[j].size();
    e /= t.axes[j].size();
  }
  const auto& axes = e_.grid().axes();
  std::vector<std::uint64_t> gc(axes.size(), 0);
  for (std::size_t j = 0; j < t.axes.size(); ++j) {
    if (t.axes[j].name == "side") {
      *side = t.axes[j].values[tc[j]];
      continue;
    }
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (axes[a].name == t.axes[j].name) gc[a] = tc[j];
    }
  }
  return e_.grid().encode(gc);
}

const strategy::Workload* MemlimitSearch::at(std::uint64_t workload, std::int64_t side,
                                             bool* too_large) {
  auto it = cache_.find({workload, side});
  if (it == cache_.end()) {
    Sized s;
    s.workload = e_.family(workload).at(side, &s.too_large);
    const std::size_t bytes =
        sizeof(Sized) + (s.workload ? strategy::footprint_bytes(*s.workload) : 0);
    if (cache_bytes_ + bytes > kCacheBytes) {  // memory per rank must not grow with the sides
      cache_.clear();
      cache_bytes_ = 0;
    }
    cache_bytes_ += bytes;
    it = cache_.emplace(std::pair{workload, side}, std::move(s)).first;
  }
  if (too_large) *too_large = it->second.too_large;
  return it->second.workload ? &*it->second.workload : nullptr;
}

SideTaken MemlimitSearch::side_taken(std::uint64_t workload, std::int64_t side) {
  bool too_large = false;
  if (at(workload, side, &too_large)) return SideTaken::Yes;
  return too_large ? SideTaken::TooLarge : SideTaken::No;
}

bool MemlimitSearch::takes_a_side(std::uint64_t workload) {
  const auto known = takes_a_side_.find(workload);
  if (known != takes_a_side_.end()) return known->second;
  // a side past the supported sizes counts as taken (nothing fits there), and so does a range
  // whose first 4,096 sides are not: "none fits", as `paradise memlimit` says it
  bool taken = e_.family(workload).no_side_reason().empty();
  if (taken) {
    const FoundSide f = first_side(spec_.resolution_lo, spec_.resolution_hi, spec_.resolution_step,
                                   [&](std::int64_t side) { return side_taken(workload, side); });
    taken = f.side > 0 || !f.exhausted;
  }
  return takes_a_side_.emplace(workload, taken).first->second;
}

std::int64_t MemlimitSearch::value(std::size_t t, std::uint64_t entry) {
  std::int64_t side = 0;
  const auto p = e_.point(grid_index(tables_[t], entry, &side));
  switch (tables_[t].kind) {
    case MemlimitTable::Kind::LargestBatch: {
      // not "nothing fits": the model cannot take the samples (the status map: invalid)
      if (!e_.unusable_reason(p.workload).empty()) return -1;
      const auto r = largest_batch(e_.workload(p.workload), p.config, spec_.batch_lo,
                                   spec_.batch_hi, &e_.sums(p.workload), e_.memo(p.workload));
      evaluations_ += static_cast<std::uint64_t>(r.evaluations);
      return r.value;
    }
    case MemlimitTable::Kind::LargestResolution: {
      // a family with no side at all (2-D model, 3-D data; none of the range's sides) would
      // be tried side by side: -1, not "nothing fits" (once per workload, then cached)
      if (!takes_a_side(p.workload)) return -1;
      const auto r = largest_side(
          [&](std::int64_t s) {
            bool too_large = false;
            const strategy::Workload* w = at(p.workload, s, &too_large);
            if (!w) return SideOutcome{.too_large = too_large, .untaken = !too_large};
            const auto q = strategy::predict(*w, p.config);
            return SideOutcome{q.status, q.split_layer};
          },
          spec_.resolution_lo, spec_.resolution_hi, spec_.resolution_step);
      evaluations_ += static_cast<std::uint64_t>(r.evaluations);
      return r.value;
    }
    case MemlimitTable::Kind::FewestGpus: {  // at a side
      const strategy::Workload* w = at(p.workload, side);
      if (!w) return -1;  // not "nothing fits": the model cannot take the side at all
      const auto r = fewest_gpus(*w, p.config, gpus_ascending_);
      evaluations_ += static_cast<std::uint64_t>(r.evaluations);
      return r.value;
    }
  }
  throw std::logic_error("memory-limit table of no known kind");
}

bool MemlimitSearch::at_search_end(std::size_t t, std::uint64_t entry, std::int64_t value) {
  std::int64_t side = 0;
  const auto p = e_.point(grid_index(tables_[t], entry, &side));
  switch (tables_[t].kind) {
    case MemlimitTable::Kind::LargestBatch:
      return batch_at_search_end(e_.workload(p.workload), p.config, value, spec_.batch_hi);
    case MemlimitTable::Kind::LargestResolution:
      return side_at_search_end(value, spec_.resolution_hi, spec_.resolution_step,
                                [&](std::int64_t s) { return side_taken(p.workload, s); });
    case MemlimitTable::Kind::FewestGpus:  // a search downwards
      return false;
  }
  throw std::logic_error("memory-limit table of no known kind");
}

}  // namespace paradise::sweep
