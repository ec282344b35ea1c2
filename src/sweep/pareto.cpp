#include "paradise/sweep/pareto.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>

namespace paradise::sweep {

// Sort by (first, second, third, index): nothing later can dominate anything earlier. Then
// sweep keeping a point unless an earlier kept one is no worse in second and third, with
// the kept points' (second, third) minima as a staircase (Kung, Luccio & Preparata 1975,
// "On finding the maxima of a set of vectors", three dimensions in O(n log n)). With two
// objectives every third is 0 and this is the two-dimensional sweep.
std::vector<Candidate> pareto_front(std::vector<Candidate> c) {
  std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.first, a.second, a.third, a.index) <
           std::tie(b.first, b.second, b.third, b.index);
  });
  // second -> third of the kept points not covered by another kept point; thirds strictly
  // fall as seconds rise, so the entry at or below a second holds the least third there
  std::map<double, double> stair;
  std::vector<Candidate> front;
  for (const auto& x : c) {
    const auto above = stair.upper_bound(x.second);
    if (above != stair.begin() && std::prev(above)->second <= x.third) continue;
    auto covered = stair.lower_bound(x.second);
    auto end = covered;
    while (end != stair.end() && end->second >= x.third) ++end;
    stair.erase(covered, end);
    stair.emplace(x.second, x.third);
    front.push_back(x);
  }
  return front;
}

std::vector<Candidate> merge_fronts(const std::vector<Candidate>& a,
                                    const std::vector<Candidate>& b) {
  std::vector<Candidate> all(a);
  all.insert(all.end(), b.begin(), b.end());
  return pareto_front(std::move(all));
}

}  // namespace paradise::sweep
