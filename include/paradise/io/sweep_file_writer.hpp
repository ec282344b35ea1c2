// The sweep's HDF5 file, written collectively by all ranks in the netCDF-4 layout that
// h5py and xarray.open_dataset read directly (docs/output-format.md):
// one coordinate variable (dimension scale) per axis, data variables over the axes,
// chunked and deflated. The file appears atomically: it is written as PATH.tmp and copied
// to PATH by commit() in a canonical layout (same sweep, same bytes on any rank count); a
// writer destroyed without commit removes the temporary file, unless it was flushed as a
// checkpoint (then PATH.tmp stays for a resumed run to reopen).
// Failures of collective writes, flushes and the close are agreed by all ranks: every rank
// throws (Error where it failed, PeerError elsewhere). After such a failure the file is
// never touched again (HDF5's collective close is not safe after a write error); the
// process must then end through mpi::Environment::leave_now, not MPI_Finalize, where HDF5
// would try to close the file again.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "paradise/mpi/comm.hpp"

namespace paradise::io {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// A value of a resumed file that does not read back (check_readable).
class UnreadableError : public Error {
 public:
  using Error::Error;
};
/// An I/O failure seen by another rank (this rank's own call succeeded).
class PeerError : public Error {
 public:
  using Error::Error;
};

/// A hyperslab of a row-major array: start and count per dimension.
struct Slab {
  std::vector<std::uint64_t> start, count;
};
/// The at most 2k-1 slabs that cover the flat range [begin, end) of an array of `dims`.
std::vector<Slab> cover_range(const std::vector<std::uint64_t>& dims, std::uint64_t begin,
                              std::uint64_t end);

/// The chunk shape of a variable over `dims`: up to `max_points` points from the
/// fastest-varying axes (whole axes, then a slice of one), so each chunk is one contiguous
/// flat range.
std::vector<std::uint64_t> chunk_shape(const std::vector<std::uint64_t>& dims,
                                       std::uint64_t max_points);
/// The flat ranges of work chunks made of whole file chunks (consecutive ones together up to
/// max_points points), in order: work done range by range writes each file chunk once.
class ChunkRanges {
 public:
  ChunkRanges(const std::vector<std::uint64_t>& dims, std::uint64_t max_points);
  std::uint64_t count() const { return count_; }
  /// Chunk c's [begin, end); past the last, the empty range at the end.
  std::pair<std::uint64_t, std::uint64_t> operator[](std::uint64_t c) const;

 private:
  std::uint64_t row_ = 0, span_ = 0, per_row_ = 0, chunks_ = 0, group_ = 1, count_ = 0, total_ = 0;
};

/// How long ranks wait for each other to agree after a collective write, flush or close;
/// past it a rank calls `report` with what it knows (its own error, or that the ranks did
/// not agree), the writer is abandoned and the job aborted with exit code 2.
/// A collective step itself (a rank blocked inside it by a stopped peer) is bounded alike:
/// past `seconds` the process ends, after `report` and `leaving`. A rank's own failure is
/// reported at once (within a second) when the others do not agree on it sooner.
struct WriteDeadline {
  double seconds = 300;
  std::function<void(const std::string& error)> report;
  std::function<void()> leaving{};  ///< before the process ends without unwinding (a lock)
};

/// Whether HDF5 still holds a file open in this process (a writer given up while it was
/// being made): MPI_Finalize would then close it collectively, which is not safe after a
/// failure; the process must leave through mpi::Environment::leave_now.
bool files_left_open();

class SweepFileWriter {
 public:
  /// Create: a new PATH.tmp. Resume: reopen the PATH.tmp of an interrupted run; then
  /// attribute() and axis() keep what is there and the variable_*() calls reopen the
  /// variables, while table() and arrays() replace a group written before.
  enum class Mode { Create, Resume };
  using Deadline = WriteDeadline;
  SweepFileWriter(std::string path, const mpi::Comm& comm, Mode mode = Mode::Create,
                  Deadline deadline = {});
  ~SweepFileWriter();
  SweepFileWriter(const SweepFileWriter&) = delete;
  SweepFileWriter& operator=(const SweepFileWriter&) = delete;
  SweepFileWriter(SweepFileWriter&&) noexcept;
  SweepFileWriter& operator=(SweepFileWriter&&) noexcept;

  /// Root-group attributes (every rank calls with the same values).
  void attribute(const std::string& name, const std::string& value);
  void attribute(const std::string& name, std::int64_t value);
  /// Coordinate variables; declare every axis before the variables that use it.
  void axis(const std::string& name, const std::vector<std::string>& labels);
  void axis(const std::string& name, const std::vector<std::int64_t>& values);
  void axis(const std::string& name, const std::vector<double>& values);
  /// The most points per chunk of the variables declared after (default 64 Ki; chunk_shape).
  void chunk_points(std::uint64_t max_points);
  /// A data variable over the named axes (declared ones, in declaration order; empty: all).
  void variable_u8(const std::string& name, const std::string& description,
                   const std::vector<std::string>& dims = {});
  void variable_i32(const std::string& name, const std::string& description,
                    const std::vector<std::string>& dims);
  void variable_f64(const std::string& name, const std::string& description,
                    const std::vector<std::string>& dims = {});
  /// A string attribute on a variable or an axis (units, the meaning of status codes).
  void variable_attribute(const std::string& variable, const std::string& name,
                          const std::string& value);
  /// A flag variable's codes (CF flag_values, of the variable's type; flag_meanings names
  /// them in order).
  void flag_values(const std::string& variable, const std::vector<std::uint8_t>& values);
  /// Collective: this rank's values for the flat (row-major over the variable's axes)
  /// range [begin, begin + values.size()).
  /// Every rank calls it the same number of times (with empty spans when it has nothing).
  void write(const std::string& variable, std::uint64_t begin,
             std::span<const std::uint8_t> values);
  void write(const std::string& variable, std::uint64_t begin,
             std::span<const std::int32_t> values);
  void write(const std::string& variable, std::uint64_t begin, std::span<const double> values);
  /// A group of 1-D variables over one dimension `dim` of length n (e.g. the Pareto
  /// points): `xarray.open_dataset(path, group=...)` reads it. Collective; the values are
  /// taken from rank 0 (other ranks pass the same names and n, and may pass empty data).
  struct Column {
    enum class Kind { Text, Integer, Real } kind = Kind::Real;  ///< the same on every rank
    std::string name, description;
    std::vector<std::string> text;
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
  };
  void table(const std::string& group, const std::string& dim, std::uint64_t n,
             const std::vector<Column>& columns);
  /// A string attribute on a group written by table() or arrays() (every rank, same value;
  /// also on a resume, where the group is written anew).
  void group_attribute(const std::string& group, const std::string& name, const std::string& value);
  /// A string attribute on a dataset of such a group, by path (GROUP/NAME: a column, an
  /// axis or an array; every rank, same value; also on a resume).
  void dataset_attribute(const std::string& path, const std::string& name,
                         const std::string& value);
  /// A group of dense int64 arrays over the group's own axes (e.g. memory limits over a
  /// subset of the sweep's axes); values from rank 0 (row-major over the array's axes).
  struct GroupAxis {
    std::string name;
    std::vector<std::string> labels;   ///< categorical
    std::vector<std::int64_t> values;  ///< integer (used when labels and reals are empty)
    std::vector<double> reals{};       ///< real (used when labels is empty)
  };
  struct GroupArray {
    std::string name, description;
    std::vector<std::string> dims;  ///< names of the group's axes
    std::vector<std::int64_t> values;
  };
  void arrays(const std::string& group, const std::vector<GroupAxis>& axes,
              const std::vector<GroupArray>& arrays);
  /// Collective: reads this rank's flat range [begin, begin + n) of every data variable back
  /// through the filters (n may be 0), so that a resumed run keeps only values that read
  /// back; an unreadable one (a damaged chunk) is an agreed UnreadableError naming the
  /// variable and its flat indices.
  void check_readable(std::uint64_t begin, std::uint64_t n);
  /// Collective: everything written so far reaches the file (a checkpoint); the temporary
  /// file is kept if the run dies or fails after this.
  void flush();
  /// Flushes and closes the file (checked, agreed); then rank 0 rewrites PATH.tmp in a
  /// canonical layout (objects in creation order, attributes by name, chunks raw in chunk
  /// order), so that the same content gives the same bytes whatever the rank count or
  /// checkpoints, renames the copy to PATH and removes PATH.tmp. The other ranks wait for
  /// it up to the deadline plus 1 s per 10 MB of the file (collective). If the copy fails,
  /// PATH.tmp, complete, is kept and the error says so.
  void commit();
  /// Seconds rank 0 spent in commit's canonical copy (0 on the other ranks).
  double copy_seconds() const;
  /// True after an agreed I/O failure (see above).
  bool failed() const;
  /// Collective, after check_readable failed (an agreed error): closes the resumed file,
  /// which holds no write error, on every rank, with the "complete" mark of a finished file
  /// put back. True if every rank closed it.
  bool close_after_failed_read() noexcept;
  /// True once commit has closed PATH.tmp (its canonical copy may still have failed), or
  /// close_after_failed_read has: no HDF5 file is open, so MPI_Finalize is safe again.
  bool closed() const;
  /// Forgets the file without any HDF5 call; rank 0 removes PATH.tmp unless it holds a
  /// checkpoint or every value (commit's copy failed: its error says so). Returns true when
  /// PATH.tmp was kept as a checkpoint for --resume. Not collective.
  bool abandon() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace paradise::io
