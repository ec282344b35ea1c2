// mpi::Comm: rank, size, barrier and the collectives, each MPI call through the checker.
#include "paradise/mpi/comm.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <type_traits>

#include "check.hpp"
#include "paradise/mpi/native.hpp"

namespace paradise::mpi {
namespace detail {

// Stores an MPI_Comm in Comm's std::uintptr_t (MPI_Comm is an int in MPICH, a pointer in
// Open MPI) and reads it back.
struct CommAccess {
  static_assert(sizeof(MPI_Comm) <= sizeof(std::uintptr_t) &&
                std::is_trivially_copyable_v<MPI_Comm>);
  static Comm make(MPI_Comm comm, int rank, int size) {
    std::uintptr_t handle = 0;
    std::memcpy(&handle, &comm, sizeof comm);
    return Comm(handle, rank, size);
  }
  static MPI_Comm get(const Comm& comm) {
    MPI_Comm c;
    std::memcpy(&c, &comm.handle_, sizeof c);
    return c;
  }
};

}  // namespace detail

namespace {

using detail::CommAccess;

template <class T>
MPI_Datatype datatype() {
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  if constexpr (std::is_same_v<T, std::uint64_t>) return MPI_UINT64_T;
}

template <class T>
void allreduce(const Comm& comm, std::span<T> values, MPI_Op op) {
  PARADISE_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), PARADISE_MPI_COUNT(values.size()),
                                   datatype<T>(), op, CommAccess::get(comm)));
}

// MPI_Gatherv/MPI_Allgatherv counts and displacements from every rank's payload size. Every
// rank sees all sizes, so an oversized total throws on every rank rather than hanging some.
struct Layout {
  std::vector<int> counts, displs;
  std::size_t total = 0;
};

Layout layout_of(const Comm& comm, std::size_t mine) {
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(comm.size()));
  const std::uint64_t mine64 = mine;
  PARADISE_MPI_CHECK(MPI_Allgather(&mine64, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T,
                                   CommAccess::get(comm)));
  Layout l;
  for (const auto n : sizes) {
    l.displs.push_back(PARADISE_MPI_COUNT(l.total));
    l.counts.push_back(PARADISE_MPI_COUNT(n));
    l.total += n;
  }
  PARADISE_MPI_COUNT(l.total);
  return l;
}

}  // namespace

MPI_Comm native(const Comm& comm) {
  return CommAccess::get(comm);
}

Comm Comm::world() {
  if (!Environment::active()) {
    detail::fail("Comm::world() called outside MPI_Init..MPI_Finalize (create an Environment)",
                 __FILE__, __LINE__);
  }
  int rank = 0, size = 1;
  PARADISE_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  PARADISE_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  return CommAccess::make(MPI_COMM_WORLD, rank, size);
}

Comm Comm::self() {
  if (!Environment::active()) {
    detail::fail("Comm::self() called outside MPI_Init..MPI_Finalize (create an Environment)",
                 __FILE__, __LINE__);
  }
  return CommAccess::make(MPI_COMM_SELF, 0, 1);
}

void Comm::barrier() const {
  PARADISE_MPI_CHECK(MPI_Barrier(native(*this)));
}

void Comm::abort(int code) const noexcept {
  MPI_Abort(native(*this), code);
  std::abort();  // MPI_Abort should not return; make sure
}

double Comm::wtime() {
  return MPI_Wtime();
}

void Comm::allreduce_sum(std::span<double> v) const {
  allreduce(*this, v, MPI_SUM);
}
void Comm::allreduce_sum(std::span<std::int64_t> v) const {
  allreduce(*this, v, MPI_SUM);
}
void Comm::allreduce_sum(std::span<std::uint64_t> v) const {
  allreduce(*this, v, MPI_SUM);
}
void Comm::allreduce_max(std::span<double> v) const {
  allreduce(*this, v, MPI_MAX);
}
void Comm::allreduce_max(std::span<std::int64_t> v) const {
  allreduce(*this, v, MPI_MAX);
}
void Comm::allreduce_max(std::span<std::uint64_t> v) const {
  allreduce(*this, v, MPI_MAX);
}
void Comm::allreduce_min(std::span<double> v) const {
  allreduce(*this, v, MPI_MIN);
}
void Comm::allreduce_min(std::span<std::int64_t> v) const {
  allreduce(*this, v, MPI_MIN);
}
void Comm::allreduce_min(std::span<std::uint64_t> v) const {
  allreduce(*this, v, MPI_MIN);
}

bool Comm::allreduce_or(bool value) const {
  int v = value ? 1 : 0;
  PARADISE_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LOR, native(*this)));
  return v != 0;
}

bool Comm::allreduce_or_within(bool value, double deadline_s,
                               const std::function<void()>& give_up) const {
  int in = value ? 1 : 0, out = 0, done = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  PARADISE_MPI_CHECK(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LOR, native(*this), &request));
  const double start = MPI_Wtime();
  for (long spins = 0;; ++spins) {
    PARADISE_MPI_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    if (done) return out != 0;
    if (MPI_Wtime() - start > deadline_s) {
      give_up();
      // give the launcher time to forward give_up's report before the abort tears down
      // every process (MPICH's hydra drops output still in the pipe)
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      abort(2);
    }
    if (spins > 1000) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::vector<std::uint8_t> Comm::gatherv_bytes(std::span<const std::uint8_t> bytes, int root) const {
  const Layout l = layout_of(*this, bytes.size());
  std::vector<std::uint8_t> all(rank_ == root ? l.total : 0);
  PARADISE_MPI_CHECK(MPI_Gatherv(bytes.data(), PARADISE_MPI_COUNT(bytes.size()), MPI_BYTE,
                                 all.data(), l.counts.data(), l.displs.data(), MPI_BYTE, root,
                                 native(*this)));
  return all;
}

std::vector<std::uint8_t> Comm::allgatherv_bytes(std::span<const std::uint8_t> bytes) const {
  const Layout l = layout_of(*this, bytes.size());
  std::vector<std::uint8_t> all(l.total);
  PARADISE_MPI_CHECK(MPI_Allgatherv(bytes.data(), PARADISE_MPI_COUNT(bytes.size()), MPI_BYTE,
                                    all.data(), l.counts.data(), l.displs.data(), MPI_BYTE,
                                    native(*this)));
  return all;
}

void Comm::bcast_bytes(std::vector<std::uint8_t>& bytes, int root) const {
  std::uint64_t n = bytes.size();  // the size first, so that the others can resize
  PARADISE_MPI_CHECK(MPI_Bcast(&n, 1, MPI_UINT64_T, root, native(*this)));
  bytes.resize(n);
  if (n == 0) return;
  PARADISE_MPI_CHECK(
      MPI_Bcast(bytes.data(), PARADISE_MPI_COUNT(bytes.size()), MPI_BYTE, root, native(*this)));
}

}  // namespace paradise::mpi
