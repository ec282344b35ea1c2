// native.hpp: the MPI_Comm stored inside mpi::Comm comes back out unchanged.
#include "paradise/mpi/native.hpp"

#include <gtest/gtest.h>

namespace paradise {
namespace {

TEST(Native, WorldIsMpiCommWorld) {
  int same = MPI_UNEQUAL;

  MPI_Comm_compare(mpi::native(mpi::Comm::world()), MPI_COMM_WORLD, &same);

  EXPECT_EQ(same, MPI_IDENT);
}

}  // namespace
}  // namespace paradise
