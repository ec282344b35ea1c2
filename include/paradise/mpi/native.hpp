// The raw MPI_Comm behind an mpi::Comm, for C libraries that take one (parallel HDF5 only).
// Includes <mpi.h>; everything else uses comm.hpp, which does not.
#pragma once

#include <mpi.h>

#include "paradise/mpi/comm.hpp"

namespace paradise::mpi {

/// The communicator `comm` wraps; still owned by MPI (or by whoever created it).
MPI_Comm native(const Comm& comm);

}  // namespace paradise::mpi
