// MPI wrapper and the distributed sweep pieces, run at 1, 2, 3, 4 and 7 ranks.
#include "paradise/mpi/comm.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"

namespace paradise {
namespace {

TEST(Comm, AllreduceSumOfRankPlusOneIsTriangular) {
  const auto comm = mpi::Comm::world();
  std::vector<std::uint64_t> v{static_cast<std::uint64_t>(comm.rank() + 1), 1};
  comm.allreduce_sum(v);
  const auto p = static_cast<std::uint64_t>(comm.size());
  EXPECT_EQ(v[0], p * (p + 1) / 2);  // 1 + 2 + ... + p
  EXPECT_EQ(v[1], p);
  std::vector<double> m{static_cast<double>(comm.rank())};
  comm.allreduce_min(m);
  EXPECT_EQ(m[0], 0.0);
}

TEST(Comm, GatherConcatenatesInRankOrder) {
  const auto comm = mpi::Comm::world();
  // rank r sends r+1 bytes of value r
  const std::vector<std::uint8_t> mine(static_cast<std::size_t>(comm.rank() + 1),
                                       static_cast<std::uint8_t>(comm.rank()));
  const auto all = comm.gather_bytes(mine);
  if (!comm.is_root()) {
    EXPECT_TRUE(all.empty());
    return;
  }
  std::vector<std::uint8_t> expected;
  for (int r = 0; r < comm.size(); ++r)
    expected.insert(expected.end(), static_cast<std::size_t>(r + 1), static_cast<std::uint8_t>(r));
  EXPECT_EQ(all, expected);
}

TEST(DistributedSweep, BlocksCoverEveryPointExactlyOnce) {
  const auto comm = mpi::Comm::world();
  for (std::uint64_t points : {0ull, 5ull, 7392ull, 1000000007ull}) {
    const auto b = sweep::block_of(points, comm.rank(), comm.size());
    std::vector<std::uint64_t> ranges{b.begin, b.end};
    const auto bytes =
        comm.gather_bytes({reinterpret_cast<const std::uint8_t*>(ranges.data()), 16});
    if (!comm.is_root()) continue;
    std::uint64_t next = 0;
    for (int r = 0; r < comm.size(); ++r) {
      std::uint64_t range[2];
      std::memcpy(range, bytes.data() + 16 * r, 16);
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
        c.push_back(
            {r.epoch_time_s, static_cast<double>(s.gpus[(i / s.batch.size()) % s.gpus.size()]), i});
    }
    return sweep::pareto_front(c);
  };
  std::vector<std::uint64_t> counts(3, 0);
  const auto b = sweep::block_of(e.grid().points(), comm.rank(), comm.size());
  const auto front = count_and_front(b.begin, b.end, counts);
  comm.allreduce_sum(counts);
  const auto bytes = comm.gather_bytes({reinterpret_cast<const std::uint8_t*>(front.data()),
                                        front.size() * sizeof(sweep::Candidate)});
  if (!comm.is_root()) return;
  std::vector<sweep::Candidate> gathered(bytes.size() / sizeof(sweep::Candidate));
  std::memcpy(gathered.data(), bytes.data(), bytes.size());
  std::vector<std::uint64_t> serial_counts(3, 0);
  const auto serial = count_and_front(0, e.grid().points(), serial_counts);
  EXPECT_EQ(counts, serial_counts);
  const auto merged = sweep::pareto_front(gathered);
  ASSERT_EQ(merged.size(), serial.size());
  for (std::size_t i = 0; i < merged.size(); ++i) EXPECT_EQ(merged[i].index, serial[i].index);
}

}  // namespace
}  // namespace paradise
