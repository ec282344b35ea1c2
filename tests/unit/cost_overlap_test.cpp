// The bucketed overlap's closed form against the recursion it replaces, simulated bucket by
// bucket (cost-model-notes §3: bucket j ready at F + j B / k, each exchange b in turn).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "paradise/cost/overlap.hpp"

namespace paradise::cost {
namespace {

double simulated_finish_s(double forward_s, double backward_s, int k, double bucket_s) {
  double finish = 0;
  for (int j = 1; j <= k; ++j) finish = std::max(finish, forward_s + backward_s * j / k) + bucket_s;
  return finish;
}

TEST(BucketedOverlap, ClosedFormEqualsTheRecursion) {
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> seconds(1e-4, 1.0), log_bucket(-7, 0);
  for (int trial = 0; trial < 2000; ++trial) {
    const int k = 1 + trial % 64;
    const double f = seconds(rng), b = seconds(rng), x = std::pow(10.0, log_bucket(rng));
    const double want = simulated_finish_s(f, b, k, x);
    EXPECT_NEAR(bucketed_finish_s(f, b, k, x), want, 1e-12 * want) << f << " " << b << " " << k;
  }
}

// By hand: 4 buckets over a 1 s backward pass after 0.5 s forward. At 0.1 s each they keep
// up (ready every 0.25 s): the last ends 0.1 s after the pass, at 1.6 s. At 0.5 s each they
// queue: the first is ready at 0.75 s, the four end at 0.75 + 4 x 0.5 = 2.75 s.
TEST(BucketedOverlap, HandWorkedCases) {
  EXPECT_DOUBLE_EQ(bucketed_finish_s(0.5, 1.0, 4, 0.1), 1.6);
  EXPECT_DOUBLE_EQ(bucketed_finish_s(0.5, 1.0, 4, 0.5), 2.75);
  EXPECT_DOUBLE_EQ(bucketed_finish_s(0.5, 1.0, 1, 0.3), 1.8);  // one bucket: after the pass
}

}  // namespace
}  // namespace paradise::cost
