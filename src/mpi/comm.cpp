#include "paradise/mpi/comm.hpp"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <string>

namespace paradise::mpi {
namespace {

// The one checker of every MPI call: rank, call site and MPI's error string.
void check(int code, const char* call, int line) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  throw Error("rank " + std::to_string(rank) + ": " + call + " failed at " + __FILE__ + ":" +
              std::to_string(line) + ": " + std::string(text, static_cast<std::size_t>(length)));
}

#define PARADISE_MPI(call) check((call), #call, __LINE__)

int count_of(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error("message of " + std::to_string(n) + " elements exceeds MPI's int count");
  }
  return static_cast<int>(n);
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  int initialised = 0;
  PARADISE_MPI(MPI_Initialized(&initialised));
  if (initialised) return;
  int provided = 0;
  PARADISE_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
  owner_ = true;
  PARADISE_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

Environment::Environment() {
  int initialised = 0;
  PARADISE_MPI(MPI_Initialized(&initialised));
  if (initialised) return;
  int provided = 0;
  PARADISE_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
  owner_ = true;
  PARADISE_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
}

Environment::~Environment() {
  if (owner_) MPI_Finalize();  // never throws
}

Comm Comm::world() {
  int rank = 0, size = 1;
  PARADISE_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  PARADISE_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  return Comm(rank, size);
}

void Comm::barrier() const {
  PARADISE_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

void Comm::allreduce_sum(std::span<std::uint64_t> v) const {
  PARADISE_MPI(MPI_Allreduce(MPI_IN_PLACE, v.data(), count_of(v.size()), MPI_UINT64_T, MPI_SUM,
                             MPI_COMM_WORLD));
}

void Comm::allreduce_sum(std::span<double> v) const {
  PARADISE_MPI(MPI_Allreduce(MPI_IN_PLACE, v.data(), count_of(v.size()), MPI_DOUBLE, MPI_SUM,
                             MPI_COMM_WORLD));
}

void Comm::allreduce_min(std::span<double> v) const {
  PARADISE_MPI(MPI_Allreduce(MPI_IN_PLACE, v.data(), count_of(v.size()), MPI_DOUBLE, MPI_MIN,
                             MPI_COMM_WORLD));
}

std::vector<std::uint8_t> Comm::gather_bytes(std::span<const std::uint8_t> bytes) const {
  const int mine = count_of(bytes.size());
  std::vector<int> counts(is_root() ? static_cast<std::size_t>(size_) : 0);
  PARADISE_MPI(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD));
  std::vector<int> displs(counts.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displs[r] = count_of(total);
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<std::uint8_t> all(total);
  PARADISE_MPI(MPI_Gatherv(bytes.data(), mine, MPI_BYTE, all.data(), counts.data(), displs.data(),
                           MPI_BYTE, 0, MPI_COMM_WORLD));
  return all;
}

std::vector<std::uint8_t> Comm::broadcast_bytes(std::vector<std::uint8_t> bytes) const {
  std::uint64_t n = bytes.size();
  PARADISE_MPI(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD));
  bytes.resize(n);
  PARADISE_MPI(MPI_Bcast(bytes.data(), count_of(n), MPI_BYTE, 0, MPI_COMM_WORLD));
  return bytes;
}

void Comm::abort(int code) const noexcept {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

}  // namespace paradise::mpi
