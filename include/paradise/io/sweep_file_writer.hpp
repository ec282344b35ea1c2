// The sweep's HDF5 file, written collectively by all ranks in the netCDF-4 layout that
// h5py and xarray.open_dataset read directly (shared/reference/ecosystem-notes.md §3-§4):
// one coordinate variable (dimension scale) per axis, data variables over the axes,
// chunked and deflated. The file appears atomically: it is written as PATH.tmp and renamed
// by commit(); a writer destroyed without commit removes the temporary file.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "paradise/mpi/comm.hpp"

namespace paradise::io {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A hyperslab of a row-major array: start and count per dimension.
struct Slab {
  std::vector<std::uint64_t> start, count;
};
/// The at most 2k-1 slabs that cover the flat range [begin, end) of an array of `dims`.
std::vector<Slab> cover_range(const std::vector<std::uint64_t>& dims, std::uint64_t begin,
                              std::uint64_t end);

class SweepFileWriter {
 public:
  SweepFileWriter(std::string path, const mpi::Comm& comm);
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
  /// A data variable over all declared axes (in declaration order).
  void variable_u8(const std::string& name, const std::string& description);
  void variable_f64(const std::string& name, const std::string& description);
  /// A string attribute on a variable (e.g. the meaning of status codes).
  void variable_attribute(const std::string& variable, const std::string& name,
                          const std::string& value);
  /// Collective: this rank's values for the flat range [begin, begin + values.size()).
  /// Every rank calls it the same number of times (with empty spans when it has nothing).
  void write(const std::string& variable, std::uint64_t begin,
             std::span<const std::uint8_t> values);
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
  /// Closes the file and renames PATH.tmp to PATH (collective).
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace paradise::io
