// Parallel HDF5 (MPICH flavour) behind SweepFileWriter. <hdf5.h> is included here only;
// parallel HDF5 pulls in <mpi.h> itself, and the writer uses MPI_COMM_WORLD, the
// communicator that mpi::Comm wraps.
#include "paradise/io/sweep_file_writer.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

namespace paradise::io {
namespace {

// One checker for every HDF5 call: negative ids/status are errors naming the call and file.
hid_t check(hid_t id, const char* call, const std::string& path) {
  if (id < 0) throw Error("HDF5 " + std::string(call) + " failed on " + path);
  return id;
}
#define PARADISE_H5(call) check(static_cast<hid_t>(call), #call, path_)

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

}  // namespace

std::vector<Slab> cover_range(const std::vector<std::uint64_t>& dims, std::uint64_t begin,
                              std::uint64_t end) {
  std::vector<Slab> out;
  const std::size_t k = dims.size();
  std::vector<std::uint64_t> stride(k, 1);
  for (std::size_t j = k - 1; j-- > 0;) stride[j] = stride[j + 1] * dims[j + 1];
  // One slab of whole dimension-L slices [a, b) inside a single dimension-(L-1) slice.
  const auto slab = [&](std::size_t level, std::uint64_t a, std::uint64_t b) {
    Slab s{std::vector<std::uint64_t>(k, 0), std::vector<std::uint64_t>(k, 1)};
    for (std::size_t j = 0; j < level; ++j) s.start[j] = (a / stride[j]) % dims[j];
    s.start[level] = (a / stride[level]) % dims[level];
    s.count[level] = (b - a) / stride[level];
    for (std::size_t j = level + 1; j < k; ++j) s.count[j] = dims[j];
    out.push_back(std::move(s));
  };
  // [a, b) are multiples of stride[level]: a head and a tail inside single slices of the
  // level above, the aligned middle one level up (at most 2k-1 slabs in all).
  const auto cover = [&](auto&& self, std::size_t level, std::uint64_t a, std::uint64_t b) -> void {
    if (a >= b) return;
    if (level == 0) return slab(0, a, b);
    const std::uint64_t up = stride[level - 1];
    const std::uint64_t head_end = (a + up - 1) / up * up, tail_begin = b / up * up;
    if (head_end > tail_begin) return slab(level, a, b);  // inside one slice
    if (a < head_end) slab(level, a, head_end);
    self(self, level - 1, head_end, tail_begin);
    if (tail_begin < b) slab(level, tail_begin, b);
  };
  if (k > 0) cover(cover, k - 1, begin, end);
  return out;
}

struct SweepFileWriter::Impl {
  std::string path_, tmp_;
  mpi::Comm comm_;
  Handle file_;
  std::vector<std::string> axes_;
  std::vector<std::uint64_t> dims_;
  std::map<std::string, Handle> variables_;
  std::map<std::string, Handle> scales_;
  bool committed_ = false;

  Impl(std::string path, const mpi::Comm& comm)
      : path_(std::move(path)), tmp_(path_ + ".tmp"), comm_(comm) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors come back as exceptions, no HDF5-DIAG
    Handle fapl(PARADISE_H5(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
    PARADISE_H5(H5Pset_fapl_mpio(fapl.id, MPI_COMM_WORLD, MPI_INFO_NULL));
    PARADISE_H5(H5Pset_all_coll_metadata_ops(fapl.id, true));
    PARADISE_H5(H5Pset_coll_metadata_write(fapl.id, true));
    Handle fcpl(PARADISE_H5(H5Pcreate(H5P_FILE_CREATE)), H5Pclose);
    PARADISE_H5(H5Pset_link_creation_order(fcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    const hid_t f = H5Fcreate(tmp_.c_str(), H5F_ACC_TRUNC, fcpl.id, fapl.id);
    if (f < 0) throw Error("cannot create " + tmp_ + " (is the directory writable?)");
    file_ = Handle(f, H5Fclose);
  }

  void string_attribute(hid_t obj, const std::string& name, const std::string& value) {
    Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
    PARADISE_H5(H5Tset_size(type.id, std::max<std::size_t>(1, value.size())));
    PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
    Handle space(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
    Handle attr(
        PARADISE_H5(H5Acreate2(obj, name.c_str(), type.id, space.id, H5P_DEFAULT, H5P_DEFAULT)),
        H5Aclose);
    PARADISE_H5(H5Awrite(attr.id, type.id, value.empty() ? "" : value.c_str()));
  }

  // Collective write of `n` elements of `mem_type` into the selected slabs of `dataset`.
  void write_slabs(hid_t dataset, hid_t mem_type, const void* data, std::uint64_t begin,
                   std::uint64_t n, const std::vector<std::uint64_t>& dims) {
    Handle fspace(PARADISE_H5(H5Dget_space(dataset)), H5Sclose);
    const hsize_t m = n > 0 ? n : 1;
    Handle mspace(PARADISE_H5(H5Screate_simple(1, &m, nullptr)), H5Sclose);
    if (n == 0) {
      PARADISE_H5(H5Sselect_none(fspace.id));
      PARADISE_H5(H5Sselect_none(mspace.id));
    } else {
      bool first = true;
      for (const Slab& s : cover_range(dims, begin, begin + n)) {
        std::vector<hsize_t> start(s.start.begin(), s.start.end()),
            count(s.count.begin(), s.count.end());
        PARADISE_H5(H5Sselect_hyperslab(fspace.id, first ? H5S_SELECT_SET : H5S_SELECT_OR,
                                        start.data(), nullptr, count.data(), nullptr));
        first = false;
      }
    }
    Handle dxpl(PARADISE_H5(H5Pcreate(H5P_DATASET_XFER)), H5Pclose);
    PARADISE_H5(H5Pset_dxpl_mpio(dxpl.id, H5FD_MPIO_COLLECTIVE));  // filtered datasets need it
    PARADISE_H5(H5Dwrite(dataset, mem_type, mspace.id, fspace.id, dxpl.id, n > 0 ? data : nullptr));
  }

  void add_axis(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                std::uint64_t n) {
    const hsize_t len = n;
    Handle space(PARADISE_H5(H5Screate_simple(1, &len, nullptr)), H5Sclose);
    Handle d(PARADISE_H5(H5Dcreate2(file_.id, name.c_str(), file_type, space.id, H5P_DEFAULT,
                                    H5P_DEFAULT, H5P_DEFAULT)),
             H5Dclose);
    // rank 0 writes the coordinates, the others take part with an empty selection
    write_slabs(d.id, mem_type, data, 0, comm_.is_root() ? n : 0, {n});
    PARADISE_H5(H5DSset_scale(d.id, name.c_str()));
    const int dimid = static_cast<int>(axes_.size());
    Handle aspace(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
    Handle attr(PARADISE_H5(H5Acreate2(d.id, "_Netcdf4Dimid", H5T_NATIVE_INT, aspace.id,
                                       H5P_DEFAULT, H5P_DEFAULT)),
                H5Aclose);
    PARADISE_H5(H5Awrite(attr.id, H5T_NATIVE_INT, &dimid));
    axes_.push_back(name);
    dims_.push_back(n);
    scales_[name] = std::move(d);
  }

  void add_variable(const std::string& name, hid_t type, const std::string& description) {
    std::vector<hsize_t> dims(dims_.begin(), dims_.end()), chunk(dims_.size(), 1);
    // chunks of up to 64 Ki points taken from the fastest-varying axes
    hsize_t points = 1;
    for (std::size_t j = dims.size(); j-- > 0;) {
      chunk[j] = std::min<hsize_t>(dims[j], std::max<hsize_t>(1, 65536 / points));
      points *= chunk[j];
    }
    Handle space(PARADISE_H5(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr)),
                 H5Sclose);
    Handle dcpl(PARADISE_H5(H5Pcreate(H5P_DATASET_CREATE)), H5Pclose);
    PARADISE_H5(H5Pset_chunk(dcpl.id, static_cast<int>(chunk.size()), chunk.data()));
    PARADISE_H5(H5Pset_shuffle(dcpl.id));
    PARADISE_H5(H5Pset_deflate(dcpl.id, 4));
    Handle d(PARADISE_H5(H5Dcreate2(file_.id, name.c_str(), type, space.id, H5P_DEFAULT, dcpl.id,
                                    H5P_DEFAULT)),
             H5Dclose);
    for (std::size_t j = 0; j < axes_.size(); ++j) {
      PARADISE_H5(H5DSattach_scale(d.id, scales_[axes_[j]].id, static_cast<unsigned>(j)));
    }
    string_attribute(d.id, "long_name", description);
    variables_[name] = std::move(d);
  }

  hid_t variable(const std::string& name) {
    const auto it = variables_.find(name);
    if (it == variables_.end()) throw Error("no variable '" + name + "' in " + path_);
    return it->second.id;
  }

  void close_all() {
    variables_.clear();
    scales_.clear();
    file_ = Handle();
  }
};

SweepFileWriter::SweepFileWriter(std::string path, const mpi::Comm& comm)
    : impl_(std::make_unique<Impl>(std::move(path), comm)) {}

SweepFileWriter::SweepFileWriter(SweepFileWriter&&) noexcept = default;
SweepFileWriter& SweepFileWriter::operator=(SweepFileWriter&&) noexcept = default;

SweepFileWriter::~SweepFileWriter() {
  if (!impl_ || impl_->committed_) return;
  impl_->close_all();
  if (impl_->comm_.is_root()) std::remove(impl_->tmp_.c_str());  // never a half-written output
}

void SweepFileWriter::attribute(const std::string& name, const std::string& value) {
  impl_->string_attribute(impl_->file_.id, name, value);
}

void SweepFileWriter::attribute(const std::string& name, std::int64_t value) {
  const std::string& path_ = impl_->path_;
  Handle space(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
  Handle attr(PARADISE_H5(H5Acreate2(impl_->file_.id, name.c_str(), H5T_NATIVE_INT64, space.id,
                                     H5P_DEFAULT, H5P_DEFAULT)),
              H5Aclose);
  PARADISE_H5(H5Awrite(attr.id, H5T_NATIVE_INT64, &value));
}

void SweepFileWriter::axis(const std::string& name, const std::vector<std::string>& labels) {
  const std::string& path_ = impl_->path_;
  std::size_t width = 1;
  for (const auto& l : labels) width = std::max(width, l.size() + 1);
  std::vector<char> packed(labels.size() * width, '\0');
  for (std::size_t i = 0; i < labels.size(); ++i)
    labels[i].copy(packed.data() + i * width, labels[i].size());
  Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
  PARADISE_H5(H5Tset_size(type.id, width));
  PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
  impl_->add_axis(name, type.id, type.id, packed.data(), labels.size());
  // fixed-length strings (parallel HDF5 cannot write variable-length data collectively);
  // xarray decodes them to str because of this CF attribute
  impl_->string_attribute(impl_->scales_[name].id, "_Encoding", "utf-8");
}

void SweepFileWriter::axis(const std::string& name, const std::vector<std::int64_t>& values) {
  impl_->add_axis(name, H5T_NATIVE_INT64, H5T_NATIVE_INT64, values.data(), values.size());
}

void SweepFileWriter::variable_u8(const std::string& name, const std::string& description) {
  impl_->add_variable(name, H5T_NATIVE_UINT8, description);
}

void SweepFileWriter::variable_f64(const std::string& name, const std::string& description) {
  impl_->add_variable(name, H5T_NATIVE_DOUBLE, description);
}

void SweepFileWriter::variable_attribute(const std::string& variable, const std::string& name,
                                         const std::string& value) {
  impl_->string_attribute(impl_->variable(variable), name, value);
}

void SweepFileWriter::write(const std::string& variable, std::uint64_t begin,
                            std::span<const std::uint8_t> values) {
  impl_->write_slabs(impl_->variable(variable), H5T_NATIVE_UINT8, values.data(), begin,
                     values.size(), impl_->dims_);
}

void SweepFileWriter::write(const std::string& variable, std::uint64_t begin,
                            std::span<const double> values) {
  impl_->write_slabs(impl_->variable(variable), H5T_NATIVE_DOUBLE, values.data(), begin,
                     values.size(), impl_->dims_);
}

void SweepFileWriter::table(const std::string& group, const std::string& dim, std::uint64_t n,
                            const std::vector<Column>& columns) {
  const std::string& path_ = impl_->path_;
  const bool root = impl_->comm_.is_root();
  Handle gcpl(PARADISE_H5(H5Pcreate(H5P_GROUP_CREATE)), H5Pclose);
  PARADISE_H5(H5Pset_link_creation_order(gcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
  Handle g(
      PARADISE_H5(H5Gcreate2(impl_->file_.id, group.c_str(), H5P_DEFAULT, gcpl.id, H5P_DEFAULT)),
      H5Gclose);
  const hsize_t len = n;
  const auto dataset = [&](const std::string& name, hid_t type) {
    Handle space(PARADISE_H5(H5Screate_simple(1, &len, nullptr)), H5Sclose);
    return Handle(PARADISE_H5(H5Dcreate2(g.id, name.c_str(), type, space.id, H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT)),
                  H5Dclose);
  };
  // the dimension: a scale named like it, holding 0..n-1
  std::vector<std::int64_t> ids(root ? n : 0);
  for (std::uint64_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
  Handle scale = dataset(dim, H5T_NATIVE_INT64);
  impl_->write_slabs(scale.id, H5T_NATIVE_INT64, ids.data(), 0, root ? n : 0, {n});
  PARADISE_H5(H5DSset_scale(scale.id, dim.c_str()));
  for (const Column& c : columns) {
    const std::size_t given = c.kind == Column::Kind::Text      ? c.text.size()
                              : c.kind == Column::Kind::Integer ? c.integers.size()
                                                                : c.reals.size();
    if (root && given != n)
      throw Error("column '" + c.name + "' of " + group + " has " + std::to_string(given) +
                  " values, not " + std::to_string(n));
    Handle d;
    if (c.kind == Column::Kind::Text) {
      // fixed-length strings, as wide as rank 0's widest (+1), agreed on by broadcast
      std::uint64_t width = 1;
      for (const auto& t : c.text) width = std::max<std::uint64_t>(width, t.size() + 1);
      std::vector<std::uint8_t> w(sizeof width);
      std::memcpy(w.data(), &width, sizeof width);
      w = impl_->comm_.broadcast_bytes(std::move(w));
      std::memcpy(&width, w.data(), sizeof width);
      std::vector<char> packed(root ? n * width : 0, '\0');
      for (std::size_t i = 0; root && i < c.text.size() && i < n; ++i)
        c.text[i].copy(packed.data() + i * width, c.text[i].size());
      Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
      PARADISE_H5(H5Tset_size(type.id, width));
      PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
      d = dataset(c.name, type.id);
      impl_->write_slabs(d.id, type.id, packed.data(), 0, root ? n : 0, {n});
      impl_->string_attribute(d.id, "_Encoding", "utf-8");
    } else if (c.kind == Column::Kind::Integer) {
      d = dataset(c.name, H5T_NATIVE_INT64);
      impl_->write_slabs(d.id, H5T_NATIVE_INT64, c.integers.data(), 0, root ? n : 0, {n});
    } else {
      d = dataset(c.name, H5T_NATIVE_DOUBLE);
      impl_->write_slabs(d.id, H5T_NATIVE_DOUBLE, c.reals.data(), 0, root ? n : 0, {n});
    }
    PARADISE_H5(H5DSattach_scale(d.id, scale.id, 0));
    impl_->string_attribute(d.id, "long_name", c.description);
  }
}

void SweepFileWriter::commit() {
  impl_->close_all();
  impl_->comm_.barrier();
  if (impl_->comm_.is_root()) {
    std::error_code ec;
    std::filesystem::rename(impl_->tmp_, impl_->path_, ec);
    if (ec)
      throw Error("cannot rename " + impl_->tmp_ + " to " + impl_->path_ + ": " + ec.message());
  }
  impl_->committed_ = true;
  impl_->comm_.barrier();
}

}  // namespace paradise::io
