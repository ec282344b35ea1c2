// mpi::Environment: MPI_Init_thread / MPI_Finalize, and MPI_ERRORS_RETURN on the world.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "check.hpp"

namespace paradise::mpi {
namespace {

// Initialises MPI unless it already is; true if this call did.
bool init(int* argc, char*** argv) {
  if (Environment::active()) return false;
  int provided = 0;
  PARADISE_MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided));
  try {
    // errors come back as codes to PARADISE_MPI_CHECK instead of aborting the job
    PARADISE_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    if (provided < MPI_THREAD_FUNNELED) {
      detail::fail("MPI_Init_thread provided thread level " + std::to_string(provided) +
                       ", below MPI_THREAD_FUNNELED",
                   __FILE__, __LINE__);
    }
  } catch (...) {
    MPI_Finalize();
    throw;
  }
  return true;
}

}  // namespace

Environment::Environment(int& argc, char**& argv) : owner_(init(&argc, &argv)) {}

Environment::Environment() : owner_(init(nullptr, nullptr)) {}

Environment::~Environment() {
  int finalised = 0;
  if (owner_ && MPI_Finalized(&finalised) == MPI_SUCCESS && !finalised) MPI_Finalize();
}

void Environment::leave_now(int code) noexcept {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

void Environment::finalize_and_leave(int code) noexcept {
  std::cout.flush();
  std::cerr.flush();
  int finalised = 0;
  if (MPI_Finalized(&finalised) == MPI_SUCCESS && !finalised) MPI_Finalize();
  std::fflush(nullptr);
  std::_Exit(code);
}

bool Environment::active() {
  int initialised = 0, finalised = 0;
  PARADISE_MPI_CHECK(MPI_Initialized(&initialised));
  PARADISE_MPI_CHECK(MPI_Finalized(&finalised));
  return initialised && !finalised;
}

}  // namespace paradise::mpi
