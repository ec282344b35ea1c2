// The wait for the slowest GPU of a synchronous step (docs/gpu-profiles.md §variability).
#include "paradise/strategy/synchronisation.hpp"

#include <array>
#include <cmath>
#include <cstddef>

namespace paradise::strategy {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kInvSqrt2Pi = 0.3989422804014327;

// P(Z > x) for a standard normal Z, accurate in the far tail (erfc, not 1 - erf)
double upper_tail(double x) {
  return 0.5 * std::erfc(x / kSqrt2);
}

double blom_maximum(std::int64_t n) {
  // Blom (1958): E[X(n:n)] ~ Phi^-1(1 - t), t = 0.625 / (n + 0.25); the quantile by Newton's
  // method on log P(Z > x) = log t. log P(Z > x) is concave and P(Z > x) < exp(-x^2 / 2), so
  // from sqrt(-2 log t), right of the root, the steps fall monotonically onto it.
  const double log_t = std::log(0.625 / (static_cast<double>(n) + 0.25));
  double x = std::sqrt(-2 * log_t);
  for (int i = 0; i < 60; ++i) {
    const double q = upper_tail(x);
    const double density = kInvSqrt2Pi * std::exp(-0.5 * x * x);
    const double step = (std::log(q) - log_t) * q / density;
    x += step;
    if (std::abs(step) < 1e-12) break;
  }
  return x;
}

// Blom's maximum of every count a sweep is likely to hold, solved once: a point costs a lookup
// where the quantile's Newton steps (erfc, exp and log, four to six times) cost as much as the
// rest of a data-parallel point (sweep_bench)
constexpr std::int64_t kTabulated = 8192;

const std::array<double, kTabulated + 1>& tabulated_maxima() {
  static const auto table = [] {
    std::array<double, kTabulated + 1> t{};
    for (std::int64_t n = 2; n <= kTabulated; ++n) t[static_cast<std::size_t>(n)] = blom_maximum(n);
    return t;
  }();
  return table;
}

}  // namespace

double expected_maximum_of_normals(std::int64_t n) {
  if (n <= 1) return 0;
  if (n <= kTabulated) return tabulated_maxima()[static_cast<std::size_t>(n)];
  return blom_maximum(n);
}

double slowest_gpu_factor(const system::Gpu& gpu, std::int64_t gpus) {
  if (gpu.variability_fraction == 0 || gpus <= 1) return 1;
  return 1 + gpu.speed_cv() * expected_maximum_of_normals(gpus);
}

}  // namespace paradise::strategy
