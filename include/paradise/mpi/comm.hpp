// MPI behind a small value type: the only module that includes <mpi.h> (in its .cpp files).
// Every call is checked; failures throw mpi::Error stamped with the rank and the call site.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace paradise::mpi {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// RAII MPI_Init_thread / MPI_Finalize; does nothing if MPI is already initialised. Sets
/// MPI_ERRORS_RETURN on MPI_COMM_WORLD so that errors come back to the checker.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  Environment();  ///< without the command line (MPI_Init_thread accepts none)
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owner_ = false;
};

/// A view of MPI_COMM_WORLD (the only communicator the sweep needs).
class Comm {
 public:
  static Comm world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  void barrier() const;
  /// Element-wise sums / minima across ranks, in place.
  void allreduce_sum(std::span<std::uint64_t> values) const;
  void allreduce_sum(std::span<double> values) const;
  void allreduce_min(std::span<double> values) const;
  /// Rank 0 receives every rank's bytes concatenated in rank order; others get nothing.
  std::vector<std::uint8_t> gather_bytes(std::span<const std::uint8_t> bytes) const;
  /// Rank 0's bytes on every rank.
  std::vector<std::uint8_t> broadcast_bytes(std::vector<std::uint8_t> bytes) const;
  /// Ends every rank of the job (after an error on one rank); never returns.
  [[noreturn]] void abort(int code) const noexcept;

 private:
  Comm(int rank, int size) : rank_(rank), size_(size) {}
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace paradise::mpi
