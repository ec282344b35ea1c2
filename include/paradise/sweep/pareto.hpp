// Pareto fronts with two or three objectives, all minimised (default: epoch time, GPU
// count and memory per GPU).
#pragma once

#include <cstdint>
#include <vector>

namespace paradise::sweep {

struct Candidate {
  double first = 0;         ///< e.g. epoch time in seconds
  double second = 0;        ///< e.g. GPUs or GPU-hours
  double third = 0;         ///< e.g. memory per GPU; 0 for every point of a two-objective front
  std::uint64_t index = 0;  ///< grid index of the point (ties broken by it: deterministic)
};

/// The non-dominated candidates, sorted by `first`, `second`, `third`, then `index`. A
/// candidate is dominated when another is no worse in every objective and better in one;
/// exact duplicates keep the smallest index. O(n log n). No value may be NaN (it has no
/// order: Summary refuses one).
std::vector<Candidate> pareto_front(std::vector<Candidate> candidates);

/// Front of the union of fronts (for merging ranks): the same as the front of all points.
std::vector<Candidate> merge_fronts(const std::vector<Candidate>& a,
                                    const std::vector<Candidate>& b);

}  // namespace paradise::sweep
