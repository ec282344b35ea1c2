// Error messages of the MPI checker: "rank R: <call> failed at <file>:<line>: <MPI's text>".
#include "check.hpp"

#include <limits>
#include <string_view>

namespace paradise::mpi::detail {

int world_rank() noexcept {
  int initialised = 0, finalised = 0;
  if (MPI_Initialized(&initialised) != MPI_SUCCESS || !initialised) return -1;
  if (MPI_Finalized(&finalised) != MPI_SUCCESS || finalised) return -1;
  int rank = -1;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) return -1;
  return rank;
}

namespace {
std::string rank_text() {
  const int rank = world_rank();
  return "rank " + (rank < 0 ? std::string("?") : std::to_string(rank));
}
}  // namespace

void fail(const std::string& what, const char* file, int line) {
  throw Error(rank_text() + ": " + what + " at " + file + ":" + std::to_string(line));
}

void fail_call(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  const std::string why = length > 0 ? std::string(text, static_cast<std::size_t>(length))
                                     : "MPI error code " + std::to_string(code);
  const std::string_view name(call);  // "MPI_Bcast(&n, 1, ...)" -> "MPI_Bcast"
  throw Error(rank_text() + ": " + std::string(name.substr(0, name.find('('))) + " failed at " +
              file + ":" + std::to_string(line) + ": " + why);
}

int count_of(std::size_t n, const char* file, int line) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    fail("message of " + std::to_string(n) + " elements exceeds MPI's int count", file, line);
  }
  return static_cast<int>(n);
}

}  // namespace paradise::mpi::detail
