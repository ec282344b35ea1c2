// The one checker of every MPI call (private to src/mpi): PARADISE_MPI_CHECK(MPI_Xxx(...))
// throws mpi::Error with the rank, the call, its file:line and MPI's error string.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "paradise/mpi/comm.hpp"

namespace paradise::mpi::detail {

/// Throws Error for MPI return code `code` from `call` at file:line.
[[noreturn]] void fail_call(int code, const char* call, const char* file, int line);
/// Throws Error "rank R: <what> at file:line" for failures found before calling MPI.
[[noreturn]] void fail(const std::string& what, const char* file, int line);
/// This process's rank in MPI_COMM_WORLD, or -1 outside MPI_Init..MPI_Finalize; never throws.
int world_rank() noexcept;

inline void check(int code, const char* call, const char* file, int line) {
  if (code != MPI_SUCCESS) fail_call(code, call, file, line);
}

/// `n` as an MPI int count; throws Error if it does not fit.
int count_of(std::size_t n, const char* file, int line);

}  // namespace paradise::mpi::detail

#define PARADISE_MPI_CHECK(call) ::paradise::mpi::detail::check((call), #call, __FILE__, __LINE__)
#define PARADISE_MPI_COUNT(n) ::paradise::mpi::detail::count_of((n), __FILE__, __LINE__)
