// GoogleTest main for MPI tests (LBANN's habit, CONTRIBUTING.md): rank 0 prints the
// report, other ranks print only their failures with their rank, and the exit code is the
// maximum over ranks, so a failure on any rank fails the ctest test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "paradise/mpi/comm.hpp"

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] FAILURE %s:%d\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  // the wrapper under test initialises MPI, so MPI_ERRORS_RETURN is set as in the program
  const paradise::mpi::Environment environment(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const auto world = paradise::mpi::Comm::world();
  if (!world.is_root()) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(world.rank()));
  }
  std::int64_t result = RUN_ALL_TESTS();
  world.allreduce_max(std::span(&result, 1));
  return static_cast<int>(result);
}
