// sweep::Reduction (cells of the kept axes, each standing for every combination of the
// reduced ones) and CellResult, against a brute force that decodes every grid point with
// Grid::decode and groups the points by their coordinates on the kept axes.
#include "paradise/sweep/reduction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "paradise/core/error.hpp"
#include "paradise/sweep/evaluator.hpp"

namespace paradise::sweep {
namespace {

// 2 models x 2 datasets x 2 systems x 4 strategies x 3 GPU counts x 3 batches = 288 points.
// cosmoflow cannot take imagenet nor resnet50 cosmoflow (2-D vs 3-D): whole cells are invalid.
SweepSpec small_spec() {
  SweepSpec s;
  s.models = {"resnet50", "cosmoflow"};
  s.datasets = {"imagenet", "cosmoflow"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data", "filter", "spatial", "data+filter"};
  s.gpus = {1, 4, 16};
  s.batch = {16, 256, 4096};
  return s;
}

// What a cell should hold, from its points (reduction.hpp, reduction.cpp's CellResult::add):
// the least status (ok 0 < out of memory 1 < invalid 2); the least memory per GPU over the
// points that are not invalid (invalid points have no memory figure); the shortest epoch
// over the ok points; NaN where there is no such point.
struct Expected {
  std::uint8_t status = 2;
  double memory = std::numeric_limits<double>::quiet_NaN();
  double epoch = std::numeric_limits<double>::quiet_NaN();
};

struct BruteForce {
  std::vector<std::vector<std::uint64_t>> keys;  // per cell: its kept coordinates
  std::vector<std::uint64_t> cell_of;            // per grid point
  std::vector<Expected> cells;
};

// Cells are numbered row-major over the kept axes in grid order: the order of a std::map
// over the kept coordinate vectors.
BruteForce brute_force(const Grid& g, const std::vector<PointResult>& r,
                       const std::vector<std::string>& reduced) {
  std::vector<std::size_t> kept;
  for (std::size_t a = 0; a < g.axes().size(); ++a) {
    if (std::find(reduced.begin(), reduced.end(), g.axes()[a].name) == reduced.end())
      kept.push_back(a);
  }
  std::map<std::vector<std::uint64_t>, std::vector<std::uint64_t>> points_of;
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    g.decode(i, c);
    std::vector<std::uint64_t> key;
    for (std::size_t a : kept) key.push_back(c[a]);
    points_of[key].push_back(i);
  }
  BruteForce b;
  b.cell_of.resize(g.points());
  for (const auto& [key, points] : points_of) {
    Expected x;
    std::vector<double> memories, epochs;
    for (std::uint64_t i : points) {
      b.cell_of[i] = b.keys.size();
      x.status = std::min(x.status, r[i].status);
      if (r[i].status != 2) memories.push_back(r[i].memory_per_gpu_bytes);
      if (r[i].status == 0) epochs.push_back(r[i].epoch_time_s);
    }
    if (!memories.empty()) x.memory = *std::min_element(memories.begin(), memories.end());
    if (!epochs.empty()) x.epoch = *std::min_element(epochs.begin(), epochs.end());
    b.keys.push_back(key);
    b.cells.push_back(x);
  }
  return b;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

std::vector<PointResult> evaluate_all(const Evaluator& e) {
  std::vector<PointResult> r;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) r.push_back(e.evaluate(i));
  return r;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s = "reduced:";
  for (const auto& n : names) s += " " + n;
  return s;
}

const std::vector<std::vector<std::string>> kReductions{
    {"batch"},
    {"batch", "gpus"},
    {"gpus", "batch"},              // the order of the names does not matter
    {"strategy", "gpus", "batch"},  // the three fastest axes
    {"model"},                      // the slowest axis
    {"dataset", "strategy"},        // axes that are not adjacent
    {},                             // nothing: a cell per point
    {"model", "dataset", "system", "strategy", "gpus", "batch"}};  // everything: one cell

TEST(Reduction, CellsTimesPointsPerCellIsTheGridAndKeptAxesAreInGridOrder) {
  const Evaluator e(small_spec());
  const Grid& g = e.grid();
  for (const auto& reduced : kReductions) {
    const Reduction red(g, reduced);
    EXPECT_EQ(red.cells() * red.points_per_cell(), g.points()) << joined(reduced);
    std::uint64_t cells = 1;
    std::vector<std::string> kept;
    for (const auto& a : g.axes()) {
      if (std::find(reduced.begin(), reduced.end(), a.name) == reduced.end()) {
        kept.push_back(a.name);
        cells *= a.size();
      }
    }
    EXPECT_EQ(red.kept(), kept) << joined(reduced);
    EXPECT_EQ(red.cells(), cells) << joined(reduced);
  }
}

TEST(Reduction, EveryPointIsVisitedOnceInItsOwnCellInIncreasingOrder) {
  const Evaluator e(small_spec());
  const Grid& g = e.grid();
  const std::vector<PointResult> none(g.points());
  for (const auto& reduced : kReductions) {
    const Reduction red(g, reduced);
    const BruteForce b = brute_force(g, none, reduced);
    ASSERT_EQ(b.keys.size(), red.cells()) << joined(reduced);
    std::vector<int> visits(g.points(), 0);
    for (std::uint64_t cell = 0; cell < red.cells(); ++cell) {
      std::vector<std::uint64_t> seen;
      red.for_each_point(cell, [&](std::uint64_t i) { seen.push_back(i); });
      EXPECT_EQ(seen.size(), red.points_per_cell()) << joined(reduced) << " cell " << cell;
      EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()) &&
                  std::adjacent_find(seen.begin(), seen.end()) == seen.end())
          << joined(reduced) << " cell " << cell << ": not strictly increasing";
      for (std::uint64_t i : seen) {
        ASSERT_LT(i, g.points()) << joined(reduced) << " cell " << cell;
        ++visits[i];
        EXPECT_EQ(b.cell_of[i], cell) << joined(reduced) << " point " << i;
      }
    }
    for (std::uint64_t i = 0; i < g.points(); ++i)
      EXPECT_EQ(visits[i], 1) << joined(reduced) << " point " << i;
  }
}

TEST(Reduction, CellResultsEqualBruteForce) {
  const Evaluator e(small_spec());
  const Grid& g = e.grid();
  const auto r = evaluate_all(e);
  for (const auto& reduced : kReductions) {
    const Reduction red(g, reduced);
    const BruteForce b = brute_force(g, r, reduced);
    ASSERT_EQ(b.cells.size(), red.cells()) << joined(reduced);
    int kinds[3] = {0, 0, 0};  // cells by expected best status
    for (std::uint64_t cell = 0; cell < red.cells(); ++cell) {
      CellResult x;
      red.for_each_point(cell, [&](std::uint64_t i) { x.add(r[i]); });
      const Expected& want = b.cells[cell];
      ++kinds[want.status];
      EXPECT_EQ(x.best_status, want.status) << joined(reduced) << " cell " << cell;
      EXPECT_TRUE(same(x.min_memory_per_gpu_bytes, want.memory))
          << joined(reduced) << " cell " << cell << ": " << x.min_memory_per_gpu_bytes
          << " != " << want.memory;
      EXPECT_TRUE(same(x.min_epoch_time_s, want.epoch))
          << joined(reduced) << " cell " << cell << ": " << x.min_epoch_time_s
          << " != " << want.epoch;
    }
    if (reduced == std::vector<std::string>{"batch"}) {
      // the grid gives cells of every kind: some ok, some only out of memory (memory but no
      // epoch), some only invalid (neither)
      EXPECT_GT(kinds[0], 0);
      EXPECT_GT(kinds[1], 0);
      EXPECT_GT(kinds[2], 0);
    }
  }
}

TEST(CellResult, AddKeepsTheLeastStatusMemoryAndEpoch) {
  // hand-made points; the expected values follow from the rules stated above
  CellResult c;
  EXPECT_EQ(c.best_status, 2);
  EXPECT_TRUE(std::isnan(c.min_memory_per_gpu_bytes));
  EXPECT_TRUE(std::isnan(c.min_epoch_time_s));
  PointResult invalid;
  invalid.status = 2;
  invalid.memory_per_gpu_bytes = 1;  // ignored: an invalid point has no memory figure
  invalid.epoch_time_s = 1;
  c.add(invalid);
  EXPECT_EQ(c.best_status, 2);
  EXPECT_TRUE(std::isnan(c.min_memory_per_gpu_bytes));
  EXPECT_TRUE(std::isnan(c.min_epoch_time_s));
  PointResult oom;
  oom.status = 1;
  oom.memory_per_gpu_bytes = 50;
  oom.epoch_time_s = 2;  // ignored: not feasible
  c.add(oom);
  EXPECT_EQ(c.best_status, 1);
  EXPECT_EQ(c.min_memory_per_gpu_bytes, 50);
  EXPECT_TRUE(std::isnan(c.min_epoch_time_s));
  PointResult ok;
  ok.status = 0;
  ok.memory_per_gpu_bytes = 70;
  ok.epoch_time_s = 30;
  c.add(ok);
  EXPECT_EQ(c.best_status, 0);
  EXPECT_EQ(c.min_memory_per_gpu_bytes, 50);
  EXPECT_EQ(c.min_epoch_time_s, 30);
  ok.memory_per_gpu_bytes = 40;
  ok.epoch_time_s = 20;
  c.add(ok);
  oom.memory_per_gpu_bytes = 45;
  c.add(oom);  // a later worse status leaves the status alone
  EXPECT_EQ(c.best_status, 0);
  EXPECT_EQ(c.min_memory_per_gpu_bytes, 40);
  EXPECT_EQ(c.min_epoch_time_s, 20);
}

TEST(Reduction, UnknownOrRepeatedAxesAreInputErrors) {
  const Evaluator e(small_spec());
  EXPECT_THROW((void)Reduction(e.grid(), {"batch", "precisions"}), InputError);
  EXPECT_THROW((void)Reduction(e.grid(), {"epoch_time_s"}), InputError);  // not an axis
  EXPECT_THROW((void)Reduction(e.grid(), {"batch", "gpus", "batch"}), InputError);
  EXPECT_NO_THROW((void)Reduction(e.grid(), {"batch", "gpus"}));
}

TEST(Reduction, AbsentOptionalAxesHoldOneValueAndReduceNothing) {
  // resolution and the training settings are not axes of this grid: every point has one
  // value of them, so reducing over them keeps every axis of the grid
  const Evaluator e(small_spec());
  const Reduction by_batch(e.grid(), {"batch"});
  const Reduction also(e.grid(), {"resolution", "batch", "precision", "zero_stage"});
  EXPECT_EQ(also.kept(), by_batch.kept());
  EXPECT_EQ(also.cells(), by_batch.cells());
  EXPECT_EQ(also.points_per_cell(), by_batch.points_per_cell());
  const Reduction none(e.grid(), {"optimizer", "recompute"});
  EXPECT_EQ(none.cells(), e.grid().points());
  EXPECT_EQ(none.points_per_cell(), 1u);
  EXPECT_EQ(none.kept().size(), e.grid().axes().size());
}

}  // namespace
}  // namespace paradise::sweep
