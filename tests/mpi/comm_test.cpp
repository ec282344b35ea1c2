// mpi::Environment and mpi::Comm at any rank count: expected values derived by hand for p ranks.
#include "paradise/mpi/comm.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace paradise {
namespace {

using Bytes = std::vector<std::uint8_t>;

// rank r's payload: r+1 bytes of value r (so sizes differ and the source is visible)
Bytes payload_of(int rank) {
  return Bytes(static_cast<std::size_t>(rank + 1), static_cast<std::uint8_t>(rank));
}

// payload_of(0) + payload_of(1) + ... + payload_of(p-1), 1 + 2 + ... + p = p(p+1)/2 bytes
Bytes concatenation_of_payloads(int p) {
  Bytes all;
  for (int r = 0; r < p; ++r) {
    const auto b = payload_of(r);
    all.insert(all.end(), b.begin(), b.end());
  }
  return all;
}

TEST(Environment, IsActiveInsideTheTestMain) {
  EXPECT_TRUE(mpi::Environment::active());
}

TEST(Environment, ASecondOneDoesNothingAndLeavesMpiRunning) {
  { const mpi::Environment nested; }  // MPI is already initialised: no init, no finalize

  EXPECT_TRUE(mpi::Environment::active());
  mpi::Comm::world().barrier();
}

TEST(Comm, ExactlyOneRankIsRoot) {
  const auto comm = mpi::Comm::world();
  std::vector<std::int64_t> roots{comm.is_root() ? 1 : 0};

  comm.allreduce_sum(roots);

  EXPECT_EQ(roots[0], 1);
  EXPECT_EQ(comm.is_root(), comm.rank() == 0);
}

TEST(Comm, RanksAreZeroToSizeMinusOne) {
  const auto comm = mpi::Comm::world();
  std::vector<std::int64_t> sum{comm.rank()}, max{comm.rank()}, size{comm.size()};

  comm.allreduce_sum(sum);
  comm.allreduce_max(max);
  comm.allreduce_min(size);

  const std::int64_t p = comm.size();
  EXPECT_EQ(sum[0], p * (p - 1) / 2);  // 0 + 1 + ... + (p-1)
  EXPECT_EQ(max[0], p - 1);
  EXPECT_EQ(size[0], p);  // every rank agrees on the size
}

TEST(Comm, AllreduceSumOfRankPlusOneIsTriangularForEveryType) {
  const auto comm = mpi::Comm::world();
  const int r = comm.rank();
  std::vector<double> d{r + 1.0};
  std::vector<std::int64_t> i{r + 1};
  std::vector<std::uint64_t> u{static_cast<std::uint64_t>(r + 1)};

  comm.allreduce_sum(d);
  comm.allreduce_sum(i);
  comm.allreduce_sum(u);

  const int p = comm.size();
  EXPECT_EQ(d[0], p * (p + 1) / 2.0);  // 1 + 2 + ... + p, exact in double
  EXPECT_EQ(i[0], p * (p + 1) / 2);
  EXPECT_EQ(u[0], static_cast<std::uint64_t>(p * (p + 1) / 2));
}

TEST(Comm, AllreduceMaxAndMinAreElementWise) {
  const auto comm = mpi::Comm::world();
  const int r = comm.rank();
  const int p = comm.size();
  // entry 0 grows with the rank, entry 1 shrinks, entry 2 is the same everywhere
  std::vector<double> dmax{0.5 * r, -0.5 * r, 7.0}, dmin = dmax;
  std::vector<std::int64_t> imax{r, -r, 7}, imin = imax;
  std::vector<std::uint64_t> umax{static_cast<std::uint64_t>(r),
                                  static_cast<std::uint64_t>(p - 1 - r), 7},
      umin = umax;

  comm.allreduce_max(dmax);
  comm.allreduce_min(dmin);
  comm.allreduce_max(imax);
  comm.allreduce_min(imin);
  comm.allreduce_max(umax);
  comm.allreduce_min(umin);

  const double q = 0.5 * (p - 1);
  EXPECT_EQ(dmax, (std::vector<double>{q, 0.0, 7.0}));
  EXPECT_EQ(dmin, (std::vector<double>{0.0, -q, 7.0}));
  EXPECT_EQ(imax, (std::vector<std::int64_t>{p - 1, 0, 7}));
  EXPECT_EQ(imin, (std::vector<std::int64_t>{0, -(p - 1), 7}));
  const auto top = static_cast<std::uint64_t>(p - 1);
  EXPECT_EQ(umax, (std::vector<std::uint64_t>{top, top, 7}));
  EXPECT_EQ(umin, (std::vector<std::uint64_t>{0, 0, 7}));
}

TEST(Comm, AllreduceOfAnEmptySpanIsANoOp) {
  const auto comm = mpi::Comm::world();
  std::vector<double> none;

  comm.allreduce_sum(none);

  EXPECT_TRUE(none.empty());
}

TEST(Comm, AllreduceOrIsTrueIfAnyRankIsTrue) {
  const auto comm = mpi::Comm::world();

  EXPECT_FALSE(comm.allreduce_or(false));
  EXPECT_TRUE(comm.allreduce_or(true));
  EXPECT_TRUE(comm.allreduce_or(comm.rank() == comm.size() - 1));  // the last rank only
}

TEST(Comm, GathervConcatenatesRankSizedPayloadsInRankOrderOnTheRoot) {
  const auto comm = mpi::Comm::world();
  const int last = comm.size() - 1;

  const auto at_first = comm.gatherv_bytes(payload_of(comm.rank()), 0);
  const auto at_last = comm.gatherv_bytes(payload_of(comm.rank()), last);

  const auto expected = concatenation_of_payloads(comm.size());
  EXPECT_EQ(at_first, comm.rank() == 0 ? expected : Bytes{});
  EXPECT_EQ(at_last, comm.rank() == last ? expected : Bytes{});
}

TEST(Comm, GathervSkipsRanksWithNothingToSend) {
  const auto comm = mpi::Comm::world();
  // odd ranks send nothing; even rank r sends r+1 bytes of value r
  const Bytes mine = comm.rank() % 2 ? Bytes{} : payload_of(comm.rank());

  const auto all = comm.gatherv_bytes(mine, 0);
  const auto none = comm.gatherv_bytes({}, 0);

  Bytes expected;
  for (int r = 0; r < comm.size(); r += 2) {
    const auto b = payload_of(r);
    expected.insert(expected.end(), b.begin(), b.end());
  }
  EXPECT_EQ(all, comm.is_root() ? expected : Bytes{});
  EXPECT_TRUE(none.empty());
}

TEST(Comm, AllgathervGivesEveryRankTheConcatenationInRankOrder) {
  const auto comm = mpi::Comm::world();

  const auto all = comm.allgatherv_bytes(payload_of(comm.rank()));

  EXPECT_EQ(all, concatenation_of_payloads(comm.size()));
}

TEST(Comm, BcastResizesTheOtherRanksToTheRootsPayload) {
  const auto comm = mpi::Comm::world();
  const int root = comm.size() - 1;
  // the root holds 5 bytes; the others start with 9 (too many) or none
  Bytes bytes = comm.rank() == root ? Bytes{1, 2, 3, 4, 5} : Bytes(comm.rank() % 2 ? 9u : 0u, 0xff);

  comm.bcast_bytes(bytes, root);

  EXPECT_EQ(bytes, (Bytes{1, 2, 3, 4, 5}));
}

TEST(Comm, BcastOfAnEmptyPayloadEmptiesEveryRank) {
  const auto comm = mpi::Comm::world();
  Bytes bytes = comm.is_root() ? Bytes{} : Bytes{42};

  comm.bcast_bytes(bytes, 0);

  EXPECT_TRUE(bytes.empty());
}

TEST(Comm, TheOldNamesGatherAndBroadcastFromRankZero) {
  const auto comm = mpi::Comm::world();

  const auto all = comm.gather_bytes(payload_of(comm.rank()));
  const auto b = comm.broadcast_bytes(comm.is_root() ? Bytes{7, 8} : Bytes{});

  EXPECT_EQ(all, comm.is_root() ? concatenation_of_payloads(comm.size()) : Bytes{});
  EXPECT_EQ(b, (Bytes{7, 8}));
}

// A plain struct travels whole: rank r sends r + 1 copies of {r, -r, r / 2}.
struct Sample {
  std::int64_t rank;
  std::int32_t negated;
  double half;
};

std::vector<Sample> samples_of(int rank) {
  return std::vector<Sample>(static_cast<std::size_t>(rank) + 1, Sample{rank, -rank, rank / 2.0});
}

TEST(Comm, TypedGathersGiveEveryRanksValuesInRankOrderOnTheRoot) {
  const auto comm = mpi::Comm::world();
  const auto mine = samples_of(comm.rank());

  const auto ranks = comm.gather(comm.rank() * 10);
  const auto all = comm.gatherv(std::span<const Sample>(mine));
  const auto apart = comm.gatherv_per_rank(std::span<const Sample>(mine));

  if (!comm.is_root()) {
    EXPECT_TRUE(ranks.empty() && all.empty() && apart.empty());
    return;
  }
  ASSERT_EQ(ranks.size(), static_cast<std::size_t>(comm.size()));
  ASSERT_EQ(apart.size(), static_cast<std::size_t>(comm.size()));
  std::size_t at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    EXPECT_EQ(ranks[static_cast<std::size_t>(r)], r * 10);
    const auto want = samples_of(r);
    ASSERT_EQ(apart[static_cast<std::size_t>(r)].size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i, ++at) {
      for (const Sample& got : {apart[static_cast<std::size_t>(r)][i], all[at]}) {
        EXPECT_EQ(got.rank, want[i].rank);
        EXPECT_EQ(got.negated, want[i].negated);
        EXPECT_EQ(got.half, want[i].half);
      }
    }
  }
  EXPECT_EQ(at, all.size());
}

TEST(Comm, WtimeDoesNotGoBackwards) {
  const double t0 = mpi::Comm::wtime();
  mpi::Comm::world().barrier();
  EXPECT_GE(mpi::Comm::wtime(), t0);
}

// An MPI error comes back as mpi::Error naming the rank, the call and where it was made.
TEST(CommErrors, BcastToARootOutsideTheCommunicatorThrowsWithTheRank) {
  const auto comm = mpi::Comm::world();
  Bytes bytes{1};
  std::string message;

  try {
    comm.bcast_bytes(bytes, comm.size());  // valid roots are 0 .. size-1
  } catch (const mpi::Error& e) {
    message = e.what();
  }

  EXPECT_NE(message.find("rank " + std::to_string(comm.rank()) + ": "), std::string::npos)
      << message;
  EXPECT_NE(message.find("MPI_Bcast failed at "), std::string::npos) << message;
  EXPECT_NE(message.find("src/mpi/comm.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("root"), std::string::npos) << message;  // MPICH: "Invalid root"
}

TEST(CommErrors, GathervToANegativeRootThrowsOnEveryRankAndTheCommStillWorks) {
  const auto comm = mpi::Comm::world();

  EXPECT_THROW(comm.gatherv_bytes(payload_of(comm.rank()), -1), mpi::Error);

  EXPECT_EQ(comm.allgatherv_bytes(payload_of(comm.rank())), concatenation_of_payloads(comm.size()));
}

}  // namespace
}  // namespace paradise
