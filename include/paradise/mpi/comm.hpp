// MPI behind a small value type; this header does not include <mpi.h> (native.hpp does).
// Every MPI call is checked; a failure throws mpi::Error stamped with the rank and call site.
#pragma once

#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace paradise::mpi {

/// A type whose values travel between ranks as their bytes (no pointers inside).
template <class T>
concept Trivial = std::is_trivially_copyable_v<T>;

/// A failed MPI call (or a message too large for MPI's int counts). The message reads
/// "rank R: MPI_Xxx failed at src/mpi/file.cpp:L: <MPI's error string>".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// RAII MPI_Init_thread(MPI_THREAD_FUNNELED) / MPI_Finalize. Sets MPI_ERRORS_RETURN on
/// MPI_COMM_WORLD so failures reach the checker. Does nothing if MPI is already initialised.
/// Works without mpiexec (MPI singleton init gives a world of one rank).
class Environment {
 public:
  Environment(int& argc, char**& argv);
  Environment();   ///< without the command line
  ~Environment();  ///< finalises only if this object initialised MPI; never throws
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  /// True between MPI_Init and MPI_Finalize, whoever called them.
  static bool active();

  /// Ends this process now with `code`: flushes stdout and stderr and exits without
  /// MPI_Finalize or atexit handlers. For the end of a job after an agreed I/O failure:
  /// parallel HDF5 closes its open files collectively at MPI_Finalize, and after a write
  /// error that close is not safe (ranks take different paths through it and wait forever).
  /// Call it on every rank after a barrier, so no rank is left in a collective.
  [[noreturn]] static void leave_now(int code) noexcept;
  /// Ends this process with `code` after MPI_Finalize (collective: every rank calls it), for
  /// an agreed failure while no parallel HDF5 file is open. MPICH's launcher then sees each
  /// rank finish by itself: one leaving without MPI_Finalize gets the others killed, and
  /// mpiexec's exit code was then at times the kill's signal (1 or 9), not `code`.
  [[noreturn]] static void finalize_and_leave(int code) noexcept;

 private:
  bool owner_ = false;
};

namespace detail {
struct CommAccess;  // converts to and from MPI_Comm (src/mpi/comm.cpp, for native.hpp)
}

/// A non-owning view of a communicator (MPI_COMM_WORLD or MPI_COMM_SELF); copies are cheap
/// and refer to the same communicator. Collectives must be called by every rank, in the
/// same order.
class Comm {
 public:
  /// MPI_COMM_WORLD; throws Error if no Environment (or other MPI_Init) is active.
  static Comm world();
  /// MPI_COMM_SELF: this process alone (rank 0 of 1).
  static Comm self();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  void barrier() const;
  /// Ends every rank of the job (after an unrecoverable error on one rank); never returns.
  [[noreturn]] void abort(int code) const noexcept;
  /// Seconds since an arbitrary time in the past (MPI_Wtime).
  static double wtime();

  /// Element-wise sum / maximum / minimum across ranks, in place (same length on every rank).
  void allreduce_sum(std::span<double> values) const;
  void allreduce_sum(std::span<std::int64_t> values) const;
  void allreduce_sum(std::span<std::uint64_t> values) const;
  void allreduce_max(std::span<double> values) const;
  void allreduce_max(std::span<std::int64_t> values) const;
  void allreduce_max(std::span<std::uint64_t> values) const;
  void allreduce_min(std::span<double> values) const;
  void allreduce_min(std::span<std::int64_t> values) const;
  void allreduce_min(std::span<std::uint64_t> values) const;
  /// True on every rank if `value` is true on any rank.
  bool allreduce_or(bool value) const;
  /// allreduce_or with a deadline, for agreeing after a collective call of a library that
  /// can fail on some ranks only and leave the others inside it (parallel HDF5 on a full
  /// disk): if not every rank has joined within `deadline_s`, calls `give_up` (report,
  /// clean up; it must not throw) and aborts the job with exit code 2.
  bool allreduce_or_within(bool value, double deadline_s,
                           const std::function<void()>& give_up) const;

  /// Rank `root` receives every rank's bytes concatenated in rank order; the others get
  /// an empty vector. Payload sizes may differ between ranks.
  std::vector<std::uint8_t> gatherv_bytes(std::span<const std::uint8_t> bytes, int root) const;
  /// Every rank receives every rank's bytes concatenated in rank order.
  std::vector<std::uint8_t> allgatherv_bytes(std::span<const std::uint8_t> bytes) const;
  /// Root's bytes on every rank; `bytes` is resized on the others.
  void bcast_bytes(std::vector<std::uint8_t>& bytes, int root) const;

  /// Typed gathers on rank `root` (the others get empty vectors), over gatherv_bytes.
  /// One value of every rank, in rank order.
  template <Trivial T>
  std::vector<T> gather(const T& value, int root = 0) const {
    return gatherv(std::span<const T>(&value, 1), root);
  }
  /// Every rank's values concatenated in rank order (counts may differ between ranks).
  template <Trivial T>
  std::vector<T> gatherv(std::span<const T> values, int root = 0) const {
    return values_of<T>(gatherv_bytes(bytes_of(values), root));
  }
  /// Every rank's values apart: element r holds rank r's (counts may differ).
  template <Trivial T>
  std::vector<std::vector<T>> gatherv_per_rank(std::span<const T> values, int root = 0) const {
    const auto counts = gather<std::uint64_t>(values.size(), root);
    const auto all = gatherv(values, root);
    std::vector<std::vector<T>> out;
    std::size_t at = 0;
    for (const auto n : counts) {
      out.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at),
                       all.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
    }
    return out;
  }

  /// Kept for existing callers: gatherv_bytes(bytes, 0) and bcast_bytes(bytes, 0).
  std::vector<std::uint8_t> gather_bytes(std::span<const std::uint8_t> bytes) const {
    return gatherv_bytes(bytes, 0);
  }
  std::vector<std::uint8_t> broadcast_bytes(std::vector<std::uint8_t> bytes) const {
    bcast_bytes(bytes, 0);
    return bytes;
  }

 private:
  friend struct detail::CommAccess;
  template <Trivial T>
  static std::span<const std::uint8_t> bytes_of(std::span<const T> values) {
    return {reinterpret_cast<const std::uint8_t*>(values.data()), values.size_bytes()};
  }
  template <Trivial T>
  static std::vector<T> values_of(const std::vector<std::uint8_t>& bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
  Comm(std::uintptr_t handle, int rank, int size) : handle_(handle), rank_(rank), size_(size) {}
  std::uintptr_t handle_ = 0;  ///< the MPI_Comm's bytes (an int in MPICH, a pointer in Open MPI)
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace paradise::mpi
