// The sweep grid, value ranges, partitioning, Pareto fronts and point evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "paradise/core/error.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"

namespace paradise::sweep {
namespace {

TEST(ParseIntValues, ListsAndRanges) {
  EXPECT_EQ(parse_int_values("16..1024 *2", {}, "gpus"),
            (std::vector<std::int64_t>{16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(parse_int_values("64..256 +64", {}, "batch"),
            (std::vector<std::int64_t>{64, 128, 192, 256}));
  EXPECT_EQ(parse_int_values("1, 3, 5..9 +2", {}, "k"), (std::vector<std::int64_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(parse_int_values("1..10 *3", {}, "k"), (std::vector<std::int64_t>{1, 3, 9}));
}

TEST(ParseIntValues, BadValuesNameFileLineKeyAndValue) {
  try {
    parse_int_values("16..8 *2", {"s.ini", 4}, "gpus");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.ini:4: gpus '16..8 *2': the range ends below its start");
  }
  EXPECT_THROW(parse_int_values("1..9", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1..9 *1", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1,,2", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1..2000000 +1", {}, "k"), InputError);
}

TEST(Grid, DecodeIsTheInverseOfEncodeWithTheLastAxisFastest) {
  const Grid g({Axis{"a", {"x", "y"}, {}}, Axis{"b", {}, {1, 2, 3}}, Axis{"c", {}, {5, 6, 7, 8}}});
  EXPECT_EQ(g.points(), 24u);
  std::vector<std::uint64_t> c;
  g.decode(23, c);
  EXPECT_EQ(c, (std::vector<std::uint64_t>{1, 2, 3}));
  g.decode(5, c);  // 0*12 + 1*4 + 1
  EXPECT_EQ(c, (std::vector<std::uint64_t>{0, 1, 1}));
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    g.decode(i, c);
    EXPECT_EQ(g.encode(c), i);
  }
}

TEST(Grid, OverflowAndEmptyAxesAreRefusedWithTheNumbers) {
  std::vector<std::int64_t> big(1 << 16);
  std::vector<Axis> axes(5, Axis{"x", {}, big});  // 2^80 points
  try {
    Grid g(axes);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2^64"), std::string::npos);
  }
  EXPECT_THROW(Grid({Axis{"empty", {}, {}}}), InputError);
}

TEST(BlockOf, CoversEveryPointExactlyOnceForAnyRankCount) {
  for (int ranks : {1, 2, 3, 4, 7}) {
    for (std::uint64_t points : {0ull, 1ull, 6ull, 1000003ull}) {
      std::uint64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const Range b = block_of(points, r, ranks);
        EXPECT_EQ(b.begin, next);
        EXPECT_LE(b.end - b.begin, points / static_cast<std::uint64_t>(ranks) + 1);
        next = b.end;
      }
      EXPECT_EQ(next, points);
    }
  }
}

// Obviously-correct O(n^2) front: keep what nothing dominates; duplicates keep the lowest index.
std::vector<Candidate> brute_force_front(const std::vector<Candidate>& c) {
  std::vector<Candidate> front;
  for (const auto& x : c) {
    bool dominated = false;
    for (const auto& y : c) {
      const bool no_worse = y.first <= x.first && y.second <= x.second;
      const bool better = y.first < x.first || y.second < x.second;
      if ((no_worse && better) ||
          (y.first == x.first && y.second == x.second && y.index < x.index)) {
        dominated = true;
      }
    }
    if (!dominated) front.push_back(x);
  }
  std::sort(front.begin(), front.end(),
            [](const Candidate& a, const Candidate& b) { return a.first < b.first; });
  return front;
}

TEST(Pareto, EqualsTheBruteForceFrontAndMergesExactly) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> small(0, 30);  // many ties
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Candidate> all;
    for (std::uint64_t i = 0; i < 200; ++i)
      all.push_back({static_cast<double>(small(rng)), static_cast<double>(small(rng)), i});
    const auto expected = brute_force_front(all);
    const auto front = pareto_front(all);
    ASSERT_EQ(front.size(), expected.size());
    for (std::size_t i = 0; i < front.size(); ++i) EXPECT_EQ(front[i].index, expected[i].index);
    const std::vector<Candidate> left(all.begin(), all.begin() + 77),
        right(all.begin() + 77, all.end());
    const auto merged = merge_fronts(pareto_front(left), pareto_front(right));
    ASSERT_EQ(merged.size(), front.size());
    for (std::size_t i = 0; i < front.size(); ++i) EXPECT_EQ(merged[i].index, front[i].index);
  }
}

// The same bits' value, or both missing (an invalid point's NaN).
void expect_same(double got, double want, std::uint64_t i) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << i;
  } else {
    EXPECT_EQ(got, want) << i;
  }
}

TEST(Evaluator, PointsEqualDirectPredictions) {
  SweepSpec s;
  s.models = {"resnet50", "alexnet"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data", "filter", "data+filter"};
  s.gpus = {4, 8, 128};
  s.batch = {256, 1024};
  const Evaluator e(s);
  EXPECT_EQ(e.grid().points(), 2u * 1 * 2 * 3 * 3 * 2);
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < e.grid().points(); i += 7) {
    e.grid().decode(i, c);
    strategy::WorkloadSpec ws{s.models[c[0]], s.datasets[c[1]], s.systems[c[2]], "", 0};
    strategy::Config cfg;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.gpus = s.gpus[c[4]];
    cfg.batch = s.batch[c[5]];
    const auto direct = strategy::predict(strategy::make_workload(ws), cfg);
    const auto r = e.evaluate(i);
    EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
    expect_same(r.epoch_time_s, direct.epoch_time_s, i);
    expect_same(r.memory_per_gpu_bytes, direct.memory_per_gpu_bytes, i);
  }
}

// The paradise variant through the evaluator, whose compute memo is shared by the points of
// a workload: every point (visited twice, in two orders) equals a fresh prediction without
// the memo, bit for bit.
TEST(Evaluator, ParadisePointsWithTheComputeMemoEqualFreshPredictions) {
  SweepSpec s;
  s.models = {"resnet50", "vgg16"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter", "channel", "spatial", "data+filter", "daso"};
  s.gpus = {1, 4, 8, 16};
  s.batch = {64, 128, 256};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  std::vector<std::uint64_t> c;
  const auto n = e.grid().points();
  for (std::uint64_t pass = 0; pass < 2; ++pass) {
    for (std::uint64_t j = 0; j < n; ++j) {
      const std::uint64_t i = pass == 0 ? j : n - 1 - j;
      e.grid().decode(i, c);
      strategy::Config cfg;
      cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
      cfg.gpus = s.gpus[c[4]];
      cfg.batch = s.batch[c[5]];
      cfg.variant = strategy::Variant::Paradise;
      const auto direct = strategy::predict(
          strategy::make_workload({s.models[c[0]], s.datasets[c[1]], s.systems[c[2]], "", 0}), cfg);
      const auto r = e.evaluate(i);
      EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
      expect_same(r.epoch_time_s, direct.epoch_time_s, i);
      expect_same(r.memory_per_gpu_bytes, direct.memory_per_gpu_bytes, i);
    }
  }
}

// A workload's footprint is at least its layer table (one LayerStats per layer, by
// definition); the sweep refuses workloads past max_workload_bytes before copying them: 4
// network variants of resnet50 need 4 footprints and fit in 4 footprints plus their sums
// and families, 2 KB each at most.
TEST(Evaluator, WorkloadsPastMaxWorkloadBytesAreRefused) {
  const auto w = strategy::make_workload({"resnet50", "imagenet", "abci", "", 0});
  const double f = static_cast<double>(strategy::footprint_bytes(w));
  EXPECT_GE(f, static_cast<double>(w.model.layers.size() * sizeof(model::LayerStats)));
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.gpus = {8};
  s.batch = {64};
  s.network_bandwidth_gbps = {100, 200};
  s.network_latency_us = {1, 2};
  s.max_workload_bytes = 4 * f - 1;
  try {
    Evaluator e{s};
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the sweep's 4 workloads"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_workload_bytes"), std::string::npos) << e.what();
  }
  s.max_workload_bytes = 4 * (f + 2048);
  EXPECT_EQ(Evaluator{s}.grid().points(), 4u);
}

TEST(Evaluator, UnknownNamesAreInputErrors) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.gpus = {1};
  s.batch = {1};
  s.strategies = {"zigzag"};
  EXPECT_THROW(Evaluator{s}, InputError);
  s.strategies = {"data"};
  s.systems = {"summit"};
  EXPECT_THROW(Evaluator{s}, InputError);
}

}  // namespace
}  // namespace paradise::sweep
