// The writer's HDF5 plumbing: file creation/reopening, attributes, collective hyperslab
// writes, dimension scales and chunked, deflated variables.
#include <hdf5_hl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "h5.hpp"
#include "paradise/core/path.hpp"
#include "paradise/mpi/native.hpp"

namespace paradise::io {

SweepFileWriter::Impl::Impl(std::string path, const mpi::Comm& comm, bool resume,
                            SweepFileWriter::Deadline deadline)
    : path_(std::move(path)),
      tmp_(path_ + ".tmp"),
      comm_(comm),
      resume_(resume),
      deadline_(std::move(deadline)) {
  // refused before any work: the rename at the end could not replace a directory
  if (const std::string why = why_unwritable(path_); !why.empty())
    throw Error("cannot write the file (" + why + ")");
  // the longest name written, the canonical copy's, fits the directory's limit (refused
  // now, not after the sweep)
  const std::filesystem::path copy(tmp_ + ".canonical");
  const std::string dir = copy.has_parent_path() ? copy.parent_path().string() : ".";
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max > 0 && copy.filename().string().size() > static_cast<std::size_t>(name_max))
    throw Error("cannot write the file: its name is too long for its temporary copies " +
                copy.filename().string() + " (at most " + std::to_string(name_max) + " bytes in " +
                dir + ")");
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors come back as exceptions, no HDF5-DIAG
  Handle fapl(PARADISE_H5(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
  PARADISE_H5(H5Pset_fapl_mpio(fapl.id, mpi::native(comm_), MPI_INFO_NULL));
  PARADISE_H5(H5Pset_all_coll_metadata_ops(fapl.id, true));
  PARADISE_H5(H5Pset_coll_metadata_write(fapl.id, true));
  // never through a symbolic link (the engine refused one before any work; one made since is
  // refused on every rank alike: each sees the same directory)
  if (entry_status(tmp_).kind == EntryKind::link)
    throw Error(tmp_ + ": a symbolic link is in its place, never followed: remove it");
  if (resume) {
    struct stat checked {};
    const bool regular = ::lstat(tmp_.c_str(), &checked) == 0 && S_ISREG(checked.st_mode);
    const hid_t f = regular ? H5Fopen(tmp_.c_str(), H5F_ACC_RDWR, fapl.id) : -1;
    if (f < 0) throw Error("cannot reopen " + tmp_ + " to resume (missing or damaged)");
    file_ = Handle(f, H5Fclose);
    // HDF5 opens by name and follows links: the name must still hold the file checked just
    // before (a link or another file swapped in meanwhile is refused before anything is
    // written through it; one swapped in and back again within the open is not seen)
    struct stat opened {};
    const bool same = ::lstat(tmp_.c_str(), &opened) == 0 && S_ISREG(opened.st_mode) &&
                      opened.st_dev == checked.st_dev && opened.st_ino == checked.st_ino;
    if (comm_.allreduce_or(!same))
      throw Error(tmp_ + " was replaced while it was reopened (a link or another file in its " +
                  "place): not resumed through it");
    flushed_ = true;  // it held a checkpoint: keep it if this run fails too
    // not finished while this run works on it (a commit whose copy failed left the mark;
    // every rank calls: a collective metadata change)
    if (PARADISE_H5(H5Aexists(file_.id, "complete")) > 0) {
      PARADISE_H5(H5Adelete(file_.id, "complete"));
      uncompleted_ = true;
    }
    return;
  }
  Handle fcpl(PARADISE_H5(H5Pcreate(H5P_FILE_CREATE)), H5Pclose);
  PARADISE_H5(H5Pset_link_creation_order(fcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
  untimed(fcpl.id);
  // a leftover of a run killed before its first checkpoint (the engine refused one that has
  // a checkpoint, and holds the output's lock: no sweep writes it) is unlinked, never
  // truncated: another name of the same file keeps its data; then the new file is created
  // exclusively (H5F_ACC_EXCL: O_EXCL, which follows no link)
  if (comm_.is_root() && entry_status(tmp_).kind == EntryKind::file) ::unlink(tmp_.c_str());
  comm_.barrier();
  const hid_t f = H5Fcreate(tmp_.c_str(), H5F_ACC_EXCL, fcpl.id, fapl.id);
  if (f < 0) {
    const std::string cause = h5_error_cause();
    throw Error("cannot create " + tmp_ + " (" + (cause.empty() ? "exists?" : cause) + ")");
  }
  file_ = Handle(f, H5Fclose);
}

void SweepFileWriter::Impl::string_attribute(hid_t obj, const std::string& name,
                                             const std::string& value) {
  Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
  PARADISE_H5(H5Tset_size(type.id, std::max<std::size_t>(1, value.size())));
  PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
  // text beyond ASCII (a sweep file's comments) is declared UTF-8, as readers decode it
  if (std::any_of(value.begin(), value.end(), [](char c) { return (c & 0x80) != 0; }))
    PARADISE_H5(H5Tset_cset(type.id, H5T_CSET_UTF8));
  Handle space(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
  Handle attr(
      PARADISE_H5(H5Acreate2(obj, name.c_str(), type.id, space.id, H5P_DEFAULT, H5P_DEFAULT)),
      H5Aclose);
  PARADISE_H5(H5Awrite(attr.id, type.id, value.empty() ? "" : value.c_str()));
}

void SweepFileWriter::Impl::int_attribute(hid_t obj, const std::string& name, int value) {
  Handle space(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
  Handle attr(PARADISE_H5(H5Acreate2(obj, name.c_str(), H5T_NATIVE_INT, space.id, H5P_DEFAULT,
                                     H5P_DEFAULT)),
              H5Aclose);
  PARADISE_H5(H5Awrite(attr.id, H5T_NATIVE_INT, &value));
}

SweepFileWriter::Impl::Selection SweepFileWriter::Impl::select_range(
    hid_t dataset, std::uint64_t begin, std::uint64_t n, const std::vector<std::uint64_t>& dims) {
  Handle fspace(PARADISE_H5(H5Dget_space(dataset)), H5Sclose);
  const auto slabs = n > 0 ? cover_range(dims, begin, begin + n) : std::vector<Slab>{};
  // A range that is one hyperslab gets a memory space of the same shape: HDF5 then maps
  // memory to chunks block by block instead of element by element (H5D__chunk_mem_cb).
  std::vector<hsize_t> mdims{n > 0 ? n : 1};
  if (slabs.size() == 1) mdims.assign(slabs[0].count.begin(), slabs[0].count.end());
  Handle mspace(
      PARADISE_H5(H5Screate_simple(static_cast<int>(mdims.size()), mdims.data(), nullptr)),
      H5Sclose);
  if (n == 0) {
    PARADISE_H5(H5Sselect_none(fspace.id));
    PARADISE_H5(H5Sselect_none(mspace.id));
  } else {
    bool first = true;
    for (const Slab& s : slabs) {
      std::vector<hsize_t> start(s.start.begin(), s.start.end()),
          count(s.count.begin(), s.count.end());
      PARADISE_H5(H5Sselect_hyperslab(fspace.id, first ? H5S_SELECT_SET : H5S_SELECT_OR,
                                      start.data(), nullptr, count.data(), nullptr));
      first = false;
    }
  }
  return {std::move(fspace), std::move(mspace)};
}

Handle SweepFileWriter::Impl::collective_xfer() {
  Handle dxpl(PARADISE_H5(H5Pcreate(H5P_DATASET_XFER)), H5Pclose);
  PARADISE_H5(H5Pset_dxpl_mpio(dxpl.id, H5FD_MPIO_COLLECTIVE));  // filtered datasets need it
  return dxpl;
}

void SweepFileWriter::Impl::write_slabs(hid_t dataset, hid_t mem_type, const void* data,
                                        std::uint64_t begin, std::uint64_t n,
                                        const std::vector<std::uint64_t>& dims) {
  // an empty dataset (no Pareto point, a zero-length axis) has no storage to write: HDF5
  // refuses even an empty selection of it; every rank knows dims, so all skip alike
  if (std::find(dims.begin(), dims.end(), std::uint64_t{0}) != dims.end()) return;
  const Selection sel = select_range(dataset, begin, n, dims);
  const Handle dxpl = collective_xfer();
  // a full disk fails the write on some ranks only: agree before the next collective
  agreed([&] {
    PARADISE_H5(
        H5Dwrite(dataset, mem_type, sel.memory.id, sel.file.id, dxpl.id, n > 0 ? data : nullptr));
  });
}

Handle SweepFileWriter::Impl::make_scale(hid_t where, const std::string& name, hid_t file_type,
                                         hid_t mem_type, const void* data, std::uint64_t n,
                                         int dimid) {
  const hsize_t len = n;
  Handle space(PARADISE_H5(H5Screate_simple(1, &len, nullptr)), H5Sclose);
  Handle d(PARADISE_H5(H5Dcreate2(where, name.c_str(), file_type, space.id, H5P_DEFAULT,
                                  untimed_dcpl().id, H5P_DEFAULT)),
           H5Dclose);
  // rank 0 writes the coordinates, the others take part with an empty selection
  write_slabs(d.id, mem_type, data, 0, comm_.is_root() ? n : 0, {n});
  PARADISE_H5(H5DSset_scale(d.id, name.c_str()));
  int_attribute(d.id, "_Netcdf4Dimid", dimid);  // netCDF-4's dimension order
  return d;
}

Handle SweepFileWriter::Impl::text_type(const std::vector<std::string>& labels,
                                        std::vector<char>& packed) {
  std::size_t width = 1;
  for (const auto& l : labels) width = std::max(width, l.size() + 1);
  packed.assign(labels.size() * width, '\0');
  for (std::size_t i = 0; i < labels.size(); ++i)
    labels[i].copy(packed.data() + i * width, labels[i].size());
  Handle type(PARADISE_H5(H5Tcopy(H5T_C_S1)), H5Tclose);
  PARADISE_H5(H5Tset_size(type.id, width));
  PARADISE_H5(H5Tset_strpad(type.id, H5T_STR_NULLTERM));
  return type;
}

void SweepFileWriter::Impl::add_axis(const std::string& name, hid_t file_type, hid_t mem_type,
                                     const void* data, std::uint64_t n) {
  if (!resume_) {
    scales_[name] =
        make_scale(file_.id, name, file_type, mem_type, data, n, static_cast<int>(axes_.size()));
  }
  axes_.push_back(name);
  dims_.push_back(n);
}

void SweepFileWriter::Impl::add_variable(const std::string& name, hid_t type,
                                         const std::string& description,
                                         const std::vector<std::string>& names) {
  Variable v;
  std::vector<std::size_t> which;
  for (const auto& n : names.empty() ? axes_ : names) {
    const auto it = std::find(axes_.begin(), axes_.end(), n);
    if (it == axes_.end()) {
      std::string message = "variable '";
      message.append(name).append("': no axis '").append(n).append("'");
      throw Error(message);
    }
    which.push_back(static_cast<std::size_t>(it - axes_.begin()));
    v.dims.push_back(dims_[which.back()]);
  }
  if (resume_) {
    v.dataset = Handle(PARADISE_H5(H5Dopen2(file_.id, name.c_str(), H5P_DEFAULT)), H5Dclose);
    variables_[name] = std::move(v);
    return;
  }
  std::vector<hsize_t> dims(v.dims.begin(), v.dims.end());
  const auto shape = chunk_shape(v.dims, chunk_points_);
  std::vector<hsize_t> chunk(shape.begin(), shape.end());
  Handle space(PARADISE_H5(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr)),
               H5Sclose);
  Handle dcpl = untimed_dcpl();
  PARADISE_H5(H5Pset_chunk(dcpl.id, static_cast<int>(chunk.size()), chunk.data()));
  PARADISE_H5(H5Pset_shuffle(dcpl.id));
  PARADISE_H5(H5Pset_deflate(dcpl.id, 1));
  v.dataset = Handle(PARADISE_H5(H5Dcreate2(file_.id, name.c_str(), type, space.id, H5P_DEFAULT,
                                            dcpl.id, H5P_DEFAULT)),
                     H5Dclose);
  for (std::size_t j = 0; j < which.size(); ++j) {
    PARADISE_H5(
        H5DSattach_scale(v.dataset.id, scales_[axes_[which[j]]].id, static_cast<unsigned>(j)));
  }
  string_attribute(v.dataset.id, "long_name", description);
  variables_[name] = std::move(v);
}

Handle SweepFileWriter::Impl::new_group(const std::string& name) {
  if (resume_ && H5Lexists(file_.id, name.c_str(), H5P_DEFAULT) > 0)
    PARADISE_H5(H5Ldelete(file_.id, name.c_str(), H5P_DEFAULT));
  Handle gcpl(PARADISE_H5(H5Pcreate(H5P_GROUP_CREATE)), H5Pclose);
  untimed(gcpl.id);
  PARADISE_H5(H5Pset_link_creation_order(gcpl.id, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
  return Handle(PARADISE_H5(H5Gcreate2(file_.id, name.c_str(), H5P_DEFAULT, gcpl.id, H5P_DEFAULT)),
                H5Gclose);
}

SweepFileWriter::Impl::Variable& SweepFileWriter::Impl::variable(const std::string& name) {
  const auto it = variables_.find(name);
  if (it == variables_.end()) throw Error("no variable '" + name + "' in " + path_);
  return it->second;
}

void SweepFileWriter::Impl::close_all() {
  if (failed_ || file_.id < 0) return;
  agreed([&] {
    PARADISE_H5(H5Fflush(file_.id, H5F_SCOPE_GLOBAL));  // the close has nothing left to write
    for (auto& [name, v] : variables_) v.dataset.close_checked("H5Dclose", path_);
    for (auto& [name, s] : scales_) s.close_checked("H5Dclose", path_);
  });
  agreed([&] { file_.close_checked("H5Fclose", path_); });
  variables_.clear();
  scales_.clear();
}

void SweepFileWriter::Impl::abandon(bool here) noexcept {
  failed_ = true;
  for (auto& [name, v] : variables_) v.dataset.release();
  for (auto& [name, s] : scales_) s.release();
  file_.release();
  if ((here || comm_.is_root()) && !flushed_ && !complete_) std::remove(tmp_.c_str());
}

void SweepFileWriter::Impl::give_up_inside(double seconds,
                                           const std::string& waiting_for) noexcept {
  std::string why;
  try {
    why = "a collective step did not end within " + std::to_string(static_cast<long>(seconds)) +
          " s (--io-timeout): " +
          (waiting_for.empty() ? "a collective HDF5 call on " + tmp_ + " (a rank stopped or stuck?)"
                               : waiting_for);
  } catch (...) {  // the process ends all the same
  }
  end_job(why);
}

void SweepFileWriter::Impl::end_job(const std::string& why) noexcept {
  try {
    if (deadline_.report) deadline_.report(why + kept());
  } catch (...) {  // the process ends all the same
  }
  if (!flushed_ && !complete_) ::unlink(tmp_.c_str());
  if (deadline_.leaving) deadline_.leaving();
  // the launcher forwards the report before it ends the other ranks (as Comm::abort)
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::_Exit(2);
}

std::string SweepFileWriter::Impl::kept() const {
  if (complete_)
    return "; the finished file stays in " + tmp_ + " (every value; its layout, not its " +
           "content, depends on the rank count): rename it to " + path_ + ", or rerun" +
           (flushed_ ? " with --resume (it redoes the chunks after the last checkpoint)" : "");
  if (flushed_) return "; the last checkpoint stays in " + tmp_ + " for --resume";
  return "";
}

std::string h5_error_cause() {
  std::string cause;
  const auto innermost = [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
    if (e->desc && *e->desc) *static_cast<std::string*>(out) = e->desc;
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, innermost, &cause);
  return cause;
}

}  // namespace paradise::io
