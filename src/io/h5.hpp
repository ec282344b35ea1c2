// Private to src/io: RAII handles, the checker of every HDF5 call, and the writer's state.
#pragma once

#include <hdf5.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {

// Negative ids/status are errors naming the call and the file.
inline hid_t check(hid_t id, const char* call, const std::string& path) {
  if (id < 0) throw Error("HDF5 " + std::string(call) + " failed on " + path);
  return id;
}
#define PARADISE_H5(call) ::paradise::io::check(static_cast<hid_t>(call), #call, path_)

// Closes an HDF5 handle of any kind; never throws.
struct Handle {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  Handle() = default;
  Handle(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  Handle(Handle&& o) noexcept : id(o.id), close(o.close) { o.id = -1; }
  Handle& operator=(Handle&& o) noexcept {
    std::swap(id, o.id);
    std::swap(close, o.close);
    return *this;
  }
  ~Handle() {
    if (id >= 0 && close) close(id);
  }
};

struct SweepFileWriter::Impl {
  struct Variable {
    Handle dataset;
    std::vector<std::uint64_t> dims;
  };
  std::string path_, tmp_;
  mpi::Comm comm_;
  bool resume_ = false;
  Handle file_;
  std::vector<std::string> axes_;
  std::vector<std::uint64_t> dims_;
  std::map<std::string, Variable> variables_;
  std::map<std::string, Handle> scales_;
  bool committed_ = false, flushed_ = false;

  Impl(std::string path, const mpi::Comm& comm, bool resume);
  void string_attribute(hid_t obj, const std::string& name, const std::string& value);
  void int_attribute(hid_t obj, const std::string& name, int value);
  // Collective write of `n` elements of `mem_type` into the flat range [begin, begin + n)
  // of `dataset` (row-major over `dims`); n may be 0 on some ranks.
  void write_slabs(hid_t dataset, hid_t mem_type, const void* data, std::uint64_t begin,
                   std::uint64_t n, const std::vector<std::uint64_t>& dims);
  // A 1-D dimension scale in `where` holding `n` values written by rank 0.
  Handle make_scale(hid_t where, const std::string& name, hid_t file_type, hid_t mem_type,
                    const void* data, std::uint64_t n, int dimid);
  // A fixed-length string type as wide as the longest label (+1).
  Handle text_type(const std::vector<std::string>& labels, std::vector<char>& packed);
  void add_axis(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                std::uint64_t n);
  void add_variable(const std::string& name, hid_t type, const std::string& description,
                    const std::vector<std::string>& dims);
  // A new group (replacing one of that name in a resumed file).
  Handle new_group(const std::string& name);
  Variable& variable(const std::string& name);
  void close_all();
};

}  // namespace paradise::io
