#include "paradise/sweep/pareto.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace paradise::sweep {

// Sort by (first, second, index); sweep keeping points whose second is strictly below
// every earlier one (Kung, Luccio & Preparata 1975, two objectives).
std::vector<Candidate> pareto_front(std::vector<Candidate> c) {
  std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.first, a.second, a.index) < std::tie(b.first, b.second, b.index);
  });
  std::vector<Candidate> front;
  double best_second = std::numeric_limits<double>::infinity();
  for (const auto& x : c) {
    if (x.second < best_second) {
      front.push_back(x);
      best_second = x.second;
    }
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
