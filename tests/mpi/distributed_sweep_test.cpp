// The distributed sweep pieces over mpi::Comm: block partition and Pareto merge.
#include <gtest/gtest.h>

#include <cstring>

#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"

namespace paradise {
namespace {

TEST(DistributedSweep, BlocksCoverEveryPointExactlyOnce) {
  const auto comm = mpi::Comm::world();
  for (std::uint64_t points : {0ull, 5ull, 7392ull, 1000000007ull}) {
    const auto b = sweep::block_of(points, comm.rank(), comm.size());
    std::vector<std::uint64_t> ranges{b.begin, b.end};
    const auto bytes =
        comm.gatherv_bytes({reinterpret_cast<const std::uint8_t*>(ranges.data()), 16}, 0);
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
  const auto bytes = comm.gatherv_bytes({reinterpret_cast<const std::uint8_t*>(front.data()),
                                         front.size() * sizeof(sweep::Candidate)},
                                        0);
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
