// The distributed sweep pieces over mpi::Comm: block partition, Pareto merge, summaries of
// round-robin chunks merged on rank 0, and reduced cells computed across ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <tuple>

#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise {
namespace {

TEST(DistributedSweep, BlocksCoverEveryPointExactlyOnce) {
  const auto comm = mpi::Comm::world();
  for (std::uint64_t points : {0ull, 5ull, 7392ull, 1000000007ull}) {
    const auto b = sweep::block_of(points, comm.rank(), comm.size());
    const std::vector<std::uint64_t> ranges{b.begin, b.end};
    const auto all = comm.gatherv_per_rank(std::span<const std::uint64_t>(ranges), 0);
    if (!comm.is_root()) continue;
    std::uint64_t next = 0;
    for (const auto& range : all) {
      EXPECT_EQ(range[0], next);
      next = range[1];
    }
    EXPECT_EQ(next, points);
  }
}

// Every rank evaluates its block; the merged counts and Pareto front equal one rank's.
TEST(DistributedSweep, MergedResultsEqualASerialEvaluation) {
  const auto comm = mpi::Comm::world();
  sweep::SweepSpec s;
  s.models = {"resnet50", "vgg16"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter", "data+filter", "pipeline"};
  s.gpus = {1, 2, 4, 8, 16, 32, 64};
  s.batch = {64, 256, 1024};
  const sweep::Evaluator e(s);
  const auto count_and_front = [&](std::uint64_t begin, std::uint64_t end,
                                   std::vector<std::uint64_t>& counts) {
    std::vector<sweep::Candidate> c;
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto r = e.evaluate(i);
      ++counts[r.status];
      if (r.status == 0)
        c.push_back({r.epoch_time_s,
                     static_cast<double>(s.gpus[(i / s.batch.size()) % s.gpus.size()]), 0.0, i});
    }
    return sweep::pareto_front(c);
  };
  std::vector<std::uint64_t> counts(3, 0);
  const auto b = sweep::block_of(e.grid().points(), comm.rank(), comm.size());
  const auto front = count_and_front(b.begin, b.end, counts);
  comm.allreduce_sum(counts);
  const auto gathered = comm.gatherv(std::span<const sweep::Candidate>(front), 0);
  if (!comm.is_root()) return;
  std::vector<std::uint64_t> serial_counts(3, 0);
  const auto serial = count_and_front(0, e.grid().points(), serial_counts);
  EXPECT_EQ(counts, serial_counts);
  const auto merged = sweep::pareto_front(gathered);
  ASSERT_EQ(merged.size(), serial.size());
  for (std::size_t i = 0; i < merged.size(); ++i) EXPECT_EQ(merged[i].index, serial[i].index);
}

// 3 models x 1 dataset x 1 system x 4 strategies x 7 GPU counts x 3 batches = 252 points:
// 7 chunks of 37 (the last one short), so 7 ranks get one each and fewer ranks several.
sweep::SweepSpec round_robin_spec() {
  sweep::SweepSpec s;
  s.models = {"resnet50", "vgg16", "alexnet"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter", "data+filter", "pipeline"};
  s.gpus = {1, 2, 4, 8, 16, 32, 64};
  s.batch = {64, 256, 1024};
  return s;
}

constexpr std::uint64_t kChunk = 37;

// Calls f(i) for every point of the chunks c = rank, rank + size, ... (chunk c is
// [37 c, 37 (c + 1)), cut at the end of the grid). Deliberately not the engine's chunk loop
// (tests/mpi/engine_test.cpp drives that one): the tests below deal points in an order of
// their own, so that sweep::Summary and sweep::Reduction are checked to merge to the serial
// answer whatever partition of the grid the ranks held.
template <class F>
void for_my_chunks(std::uint64_t points, const mpi::Comm& comm, F&& f) {
  const auto step = static_cast<std::uint64_t>(comm.size());
  for (std::uint64_t c = static_cast<std::uint64_t>(comm.rank()); c * kChunk < points; c += step) {
    for (std::uint64_t i = c * kChunk; i < std::min(points, (c + 1) * kChunk); ++i) f(i);
  }
}

// Obviously-correct O(n^2) front: keep what nothing dominates (no worse in all three, better
// in one); duplicates keep the lowest index; sorted by the objectives, then the index.
std::vector<sweep::Candidate> brute_force_front(const std::vector<sweep::Candidate>& c) {
  std::vector<sweep::Candidate> front;
  for (const auto& x : c) {
    bool dominated = false;
    for (const auto& y : c) {
      const bool no_worse = y.first <= x.first && y.second <= x.second && y.third <= x.third;
      const bool better = y.first < x.first || y.second < x.second || y.third < x.third;
      const bool same = y.first == x.first && y.second == x.second && y.third == x.third;
      if ((no_worse && better) || (same && y.index < x.index)) dominated = true;
    }
    if (!dominated) front.push_back(x);
  }
  std::sort(front.begin(), front.end(), [](const sweep::Candidate& a, const sweep::Candidate& b) {
    return std::tie(a.first, a.second, a.third, a.index) <
           std::tie(b.first, b.second, b.third, b.index);
  });
  return front;
}

// Every rank summarises its round-robin chunks; rank 0 gathers the byte counts and the
// bytes, merges them, and compares with a serial brute force: epoch time, GPU-hours per
// epoch (epoch seconds x GPUs / 3600, as summary.cpp defines it) and memory per GPU, one
// front per (model, batch), groups in row-major order of those coordinates.
TEST(DistributedSweep, SummariesOfRoundRobinChunksMergeToTheBruteForceFronts) {
  const auto comm = mpi::Comm::world();
  const sweep::Evaluator e(round_robin_spec());
  const sweep::Grid& g = e.grid();
  const sweep::ParetoSpec p{
      {sweep::Objective::EpochTime, sweep::Objective::GpuHours, sweep::Objective::MemoryPerGpu},
      {"model", "batch"}};
  sweep::Summary mine(g, p);
  for_my_chunks(g.points(), comm, [&](std::uint64_t i) { mine.add(i, e.evaluate(i)); });
  const auto bytes = mine.to_bytes();
  const auto sizes = comm.gather<std::uint64_t>(bytes.size(), 0);
  const auto all = comm.gatherv(std::span<const std::uint8_t>(bytes), 0);
  if (!comm.is_root()) return;
  ASSERT_EQ(sizes.size(), static_cast<std::size_t>(comm.size()));
  sweep::Summary merged(g, p);
  std::size_t at = 0;
  for (const std::uint64_t len : sizes) {
    merged.merge(std::span<const std::uint8_t>(all).subspan(at, len));
    at += len;
  }
  EXPECT_EQ(at, all.size());

  // serial brute force over every point
  std::array<std::uint64_t, 3> counts{};
  std::map<std::vector<std::uint64_t>, std::vector<sweep::Candidate>> groups;
  std::vector<double> best(g.axes()[0].size(), 0);
  std::vector<std::uint64_t> best_index(g.axes()[0].size(), 0), c;
  std::vector<bool> found(g.axes()[0].size(), false);
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    const auto r = e.evaluate(i);
    ++counts[r.status];
    if (r.status != 0) continue;
    g.decode(i, c);  // model, dataset, system, strategy, gpus, batch
    const auto gpus = static_cast<double>(g.axes()[4].values[c[4]]);
    groups[{c[0], c[5]}].push_back(
        {r.epoch_time_s, r.epoch_time_s * gpus / 3600.0, r.memory_per_gpu_bytes, i});
    if (!found[c[0]] || r.epoch_time_s < best[c[0]]) {
      found[c[0]] = true;
      best[c[0]] = r.epoch_time_s;
      best_index[c[0]] = i;
    }
  }
  std::vector<sweep::Candidate> want;
  for (const auto& [key, candidates] : groups) {
    const auto f = brute_force_front(candidates);
    want.insert(want.end(), f.begin(), f.end());
  }
  EXPECT_EQ(merged.counts(), counts);
  EXPECT_GT(counts[0], 0u);
  const auto got = merged.fronts();
  ASSERT_EQ(got.size(), want.size());
  EXPECT_GT(want.size(), groups.size());  // not one point per group: real fronts
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, want[i].index) << "front entry " << i;
    EXPECT_DOUBLE_EQ(got[i].second, want[i].second) << "front entry " << i;
    EXPECT_DOUBLE_EQ(got[i].third, want[i].third) << "front entry " << i;
  }
  ASSERT_EQ(merged.best().size(), found.size());
  for (std::size_t m = 0; m < found.size(); ++m) {
    ASSERT_TRUE(found[m]);
    EXPECT_EQ(merged.best()[m].found, 1u) << "model " << m;
    EXPECT_EQ(merged.best()[m].index, best_index[m]) << "model " << m;
  }
}

// Reduced cells (over batch, and over gpus and batch) dealt round-robin to the ranks: each
// rank sends (cell, best status, least memory, least epoch) for its cells; rank 0 checks that
// every cell came once and equals a serial brute force that groups the decoded points by
// their kept coordinates (least status; least memory of the points that are not invalid,
// least epoch of the ok ones; NaN when none).
TEST(DistributedSweep, ReducedCellsAcrossRanksEqualASerialBruteForce) {
  const auto comm = mpi::Comm::world();
  sweep::SweepSpec s = round_robin_spec();
  s.models = {"resnet50", "cosmoflow"};  // cosmoflow cannot take imagenet: invalid cells too
  const sweep::Evaluator e(s);
  const sweep::Grid& g = e.grid();
  struct Sent {
    std::uint64_t cell, status;
    double memory, epoch;
  };
  // checked on rank 0 in a function of its own: a failed ASSERT leaves only the check, and
  // rank 0 still joins the next reduction's gather
  const auto check = [&](const std::vector<std::string>& reduced, const sweep::Reduction& red,
                         std::vector<Sent> got) {
    ASSERT_EQ(got.size(), red.cells());

    std::vector<std::size_t> kept;  // grid axes not reduced
    for (std::size_t a = 0; a < g.axes().size(); ++a) {
      if (std::find(reduced.begin(), reduced.end(), g.axes()[a].name) == reduced.end())
        kept.push_back(a);
    }
    std::map<std::vector<std::uint64_t>, Sent> cells;  // row-major order of the kept coordinates
    std::vector<std::uint64_t> c;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::uint64_t i = 0; i < g.points(); ++i) {
      g.decode(i, c);
      std::vector<std::uint64_t> key;
      for (std::size_t a : kept) key.push_back(c[a]);
      Sent& x = cells.try_emplace(key, Sent{0, 2, nan, nan}).first->second;
      const auto r = e.evaluate(i);
      x.status = std::min<std::uint64_t>(x.status, r.status);
      if (r.status != 2 && (std::isnan(x.memory) || r.memory_per_gpu_bytes < x.memory))
        x.memory = r.memory_per_gpu_bytes;
      if (r.status == 0 && (std::isnan(x.epoch) || r.epoch_time_s < x.epoch))
        x.epoch = r.epoch_time_s;
    }
    ASSERT_EQ(cells.size(), red.cells());
    std::vector<int> seen(red.cells(), 0);
    for (const auto& x : got) {
      ASSERT_LT(x.cell, red.cells());
      ++seen[x.cell];
    }
    for (int k : seen) EXPECT_EQ(k, 1);
    std::sort(got.begin(), got.end(), [](const Sent& a, const Sent& b) { return a.cell < b.cell; });
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    std::uint64_t cell = 0;
    int statuses[3] = {0, 0, 0};
    for (const auto& [key, want] : cells) {
      ++statuses[want.status];
      EXPECT_EQ(got[cell].status, want.status) << "cell " << cell;
      EXPECT_TRUE(same(got[cell].memory, want.memory)) << "cell " << cell;
      EXPECT_TRUE(same(got[cell].epoch, want.epoch)) << "cell " << cell;
      ++cell;
    }
    EXPECT_GT(statuses[0], 0);
    EXPECT_GT(statuses[2], 0);
  };
  for (const std::vector<std::string>& reduced :
       {std::vector<std::string>{"batch"}, std::vector<std::string>{"gpus", "batch"}}) {
    const sweep::Reduction red(g, reduced);
    std::vector<Sent> mine;
    for (auto cell = static_cast<std::uint64_t>(comm.rank()); cell < red.cells();
         cell += static_cast<std::uint64_t>(comm.size())) {
      sweep::CellResult x;
      red.for_each_point(cell, [&](std::uint64_t i) { x.add(e.evaluate(i)); });
      mine.push_back({cell, x.best_status, x.min_memory_per_gpu_bytes, x.min_epoch_time_s});
    }
    const auto got = comm.gatherv(std::span<const Sent>(mine), 0);
    if (comm.is_root()) check(reduced, red, got);
  }
}

}  // namespace
}  // namespace paradise
