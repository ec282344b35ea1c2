// The bucketed overlap's closed form against the recursion it replaces, simulated bucket by
// bucket (docs/cost-model.md §overlap: bucket j ready at F + j B / k, each exchange b in turn).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>
#include <string_view>
#include <vector>

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

// The per-layer simulation by hand: a forward pass of 1 s, a backward pass of 2 s, 1 MB of
// gradients in three layers (last layer first): 60% ready at 0.25 of the backward pass
// (1.5 s), 10% at 0.5 (2 s), 30% at the end (3 s); a bucket of n bytes takes 0.1 s + n/1 MB.
struct Exchanged {
  double seconds;
  std::string_view label;
};
TEST(BucketedOverlap, PerLayerBucketsFollowEachGradient) {
  const std::vector<GradientReady> ready{{0.25, 0.6}, {0.5, 0.1}, {1.0, 0.3}};
  const auto exchange = [](double n) { return Exchanged{0.1 + n / 1e6, "x"}; };
  // buckets of one layer each (cap 1 byte): 1.5 + 0.7 = 2.2; max(2.2, 2) + 0.2 = 2.4;
  // max(2.4, 3) + 0.4 = 3.4
  auto x = per_layer_buckets(std::span(ready), 1e6, 1, 1.0, 2.0, exchange);
  EXPECT_NEAR(x.finish_s, 3.4, 1e-12);
  EXPECT_NEAR(x.total_s, 0.7 + 0.2 + 0.4, 1e-12);
  EXPECT_EQ(x.label, "x");
  // a cap of 0.65 MB: the first layer's 0.6 MB waits for the second (0.7 MB, at 2 s):
  // 2 + 0.8 = 2.8; then 0.3 MB at 3 s: 3 + 0.4 = 3.4 (a layer is never split)
  x = per_layer_buckets(std::span(ready), 1e6, 0.65e6, 1.0, 2.0, exchange);
  EXPECT_NEAR(x.finish_s, 3.4, 1e-12);
  EXPECT_NEAR(x.total_s, 0.8 + 0.4, 1e-12);
  // the late layers' gradients large, the exchange slow: the queue, not the pass, ends it:
  // 1.5 + 6.1 = 7.6; 7.6 + 1.1 = 8.7; 8.7 + 3.1 = 11.8
  x = per_layer_buckets(std::span(ready), 1e7, 1, 1.0, 2.0, exchange);
  EXPECT_NEAR(x.finish_s, 11.8, 1e-12);
  // one bucket (a cap above everything): at the end of the pass, 3 + 1.1
  x = per_layer_buckets(std::span(ready), 1e6, 1e9, 1.0, 2.0, exchange);
  EXPECT_NEAR(x.finish_s, 4.1, 1e-12);
  EXPECT_NEAR(x.total_s, 1.1, 1e-12);
}

}  // namespace
}  // namespace paradise::cost
