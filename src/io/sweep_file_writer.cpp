// Parallel HDF5 (MPICH flavour) behind SweepFileWriter: the public operations. <hdf5.h> is
// included in src/io only; the file is opened on the caller's communicator (mpi/native.hpp).
#include "paradise/io/sweep_file_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>

#include "h5.hpp"
#include "paradise/core/path.hpp"

namespace paradise::io {
namespace {

// Clears the canonical copy's path: a file there is a copy left by a run killed during it
// (the name is the writer's own, under the output's lock), unlinked; anything else (a link,
// a directory) is refused.
void replace_leftover(const std::string& copy) {
  const EntryKind at = entry_status(copy).kind;
  if (at == EntryKind::missing || at == EntryKind::unreachable) return;  // the copy will say
  if (at != EntryKind::file)
    throw Error("cannot write the canonical copy " + copy + ": " +
                (at == EntryKind::link ? "a symbolic link" : "something that is not a file") +
                " is in the way");
  if (::unlink(copy.c_str()) != 0)
    throw Error("cannot remove " + copy + ", left by an earlier run: " + std::strerror(errno));
}

}  // namespace

SweepFileWriter::SweepFileWriter(std::string path, const mpi::Comm& comm, Mode mode,
                                 Deadline deadline)
    : impl_(std::make_unique<Impl>(std::move(path), comm, mode == Mode::Resume,
                                   std::move(deadline))) {}

SweepFileWriter::SweepFileWriter(SweepFileWriter&&) noexcept = default;
SweepFileWriter& SweepFileWriter::operator=(SweepFileWriter&&) noexcept = default;

SweepFileWriter::~SweepFileWriter() {
  if (!impl_ || impl_->committed_) return;
  // not while an exception unwinds (a failure in the middle of open_output, agreed by no
  // one): the ranks may stand at different collective calls, and the close's collective
  // flush then deadlocked them (a full disk; issue 35)
  if (!impl_->failed_ && std::uncaught_exceptions() == 0) {
    try {
      impl_->close_all();
    } catch (const std::exception&) {  // destructors never throw; the file goes anyway
    }
  }
  // never a half-written output; a checkpointed one stays as PATH.tmp for --resume
  impl_->abandon();
}

double SweepFileWriter::copy_seconds() const {
  return impl_ ? impl_->copy_seconds_ : 0;
}

bool SweepFileWriter::failed() const {
  return impl_ && impl_->failed_;
}

bool SweepFileWriter::closed() const {
  return impl_ && (impl_->complete_ || impl_->closed_after_read_);
}

bool SweepFileWriter::abandon() noexcept {
  if (!impl_ || impl_->committed_) return false;
  impl_->abandon();
  return impl_->flushed_ && !impl_->complete_;  // a complete one is a result, said by commit
}

void SweepFileWriter::attribute(const std::string& name, const std::string& value) {
  if (!impl_->resume_) impl_->string_attribute(impl_->file_.id, name, value);
}

void SweepFileWriter::attribute(const std::string& name, std::int64_t value) {
  if (impl_->resume_) return;
  const std::string& path_ = impl_->path_;
  Handle space(PARADISE_H5(H5Screate(H5S_SCALAR)), H5Sclose);
  Handle attr(PARADISE_H5(H5Acreate2(impl_->file_.id, name.c_str(), H5T_NATIVE_INT64, space.id,
                                     H5P_DEFAULT, H5P_DEFAULT)),
              H5Aclose);
  PARADISE_H5(H5Awrite(attr.id, H5T_NATIVE_INT64, &value));
}

void SweepFileWriter::axis(const std::string& name, const std::vector<std::string>& labels) {
  std::vector<char> packed;
  Handle type = impl_->text_type(labels, packed);
  impl_->add_axis(name, type.id, type.id, packed.data(), labels.size());
  // fixed-length strings (parallel HDF5 cannot write variable-length data collectively);
  // xarray decodes them to str because of this CF attribute
  if (!impl_->resume_) impl_->string_attribute(impl_->scales_[name].id, "_Encoding", "utf-8");
}

void SweepFileWriter::axis(const std::string& name, const std::vector<std::int64_t>& values) {
  impl_->add_axis(name, H5T_NATIVE_INT64, H5T_NATIVE_INT64, values.data(), values.size());
}

void SweepFileWriter::axis(const std::string& name, const std::vector<double>& values) {
  impl_->add_axis(name, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, values.data(), values.size());
}

void SweepFileWriter::chunk_points(std::uint64_t max_points) {
  impl_->chunk_points_ = std::max<std::uint64_t>(1, max_points);
}

void SweepFileWriter::variable_u8(const std::string& name, const std::string& description,
                                  const std::vector<std::string>& dims) {
  impl_->add_variable(name, H5T_NATIVE_UINT8, description, dims);
}

void SweepFileWriter::variable_i32(const std::string& name, const std::string& description,
                                   const std::vector<std::string>& dims) {
  impl_->add_variable(name, H5T_NATIVE_INT32, description, dims);
}

void SweepFileWriter::variable_f64(const std::string& name, const std::string& description,
                                   const std::vector<std::string>& dims) {
  impl_->add_variable(name, H5T_NATIVE_DOUBLE, description, dims);
}

void SweepFileWriter::variable_attribute(const std::string& variable, const std::string& name,
                                         const std::string& value) {
  if (impl_->resume_) return;  // kept from the first run
  const auto scale = impl_->scales_.find(variable);
  const hid_t id =
      scale != impl_->scales_.end() ? scale->second.id : impl_->variable(variable).dataset.id;
  impl_->string_attribute(id, name, value);
}

void SweepFileWriter::flag_values(const std::string& variable,
                                  const std::vector<std::uint8_t>& values) {
  if (impl_->resume_) return;
  const std::string& path_ = impl_->path_;
  const hsize_t n = values.size();
  Handle space(PARADISE_H5(H5Screate_simple(1, &n, nullptr)), H5Sclose);
  Handle attr(PARADISE_H5(H5Acreate2(impl_->variable(variable).dataset.id, "flag_values",
                                     H5T_STD_U8LE, space.id, H5P_DEFAULT, H5P_DEFAULT)),
              H5Aclose);
  PARADISE_H5(H5Awrite(attr.id, H5T_NATIVE_UINT8, values.data()));
}

void SweepFileWriter::write(const std::string& variable, std::uint64_t begin,
                            std::span<const std::uint8_t> values) {
  auto& v = impl_->variable(variable);
  impl_->write_slabs(v.dataset.id, H5T_NATIVE_UINT8, values.data(), begin, values.size(), v.dims);
}

void SweepFileWriter::write(const std::string& variable, std::uint64_t begin,
                            std::span<const std::int32_t> values) {
  auto& v = impl_->variable(variable);
  impl_->write_slabs(v.dataset.id, H5T_NATIVE_INT32, values.data(), begin, values.size(), v.dims);
}

void SweepFileWriter::write(const std::string& variable, std::uint64_t begin,
                            std::span<const double> values) {
  auto& v = impl_->variable(variable);
  impl_->write_slabs(v.dataset.id, H5T_NATIVE_DOUBLE, values.data(), begin, values.size(), v.dims);
}

void SweepFileWriter::check_readable(std::uint64_t begin, std::uint64_t n) {
  for (auto& entry : impl_->variables_) {   // by name: the same order on every rank
    const std::string& name = entry.first;  // named: clang 14 lambdas cannot capture bindings
    auto& v = entry.second;
    if (std::find(v.dims.begin(), v.dims.end(), std::uint64_t{0}) != v.dims.end()) continue;
    bool unreadable = false;  // this rank's read failed (agreed() throws a plain Error)
    try {
      impl_->agreed([&] {                        // all of it: a failure anywhere is every rank's
        const std::string& path_ = impl_->tmp_;  // for PARADISE_H5's messages
        const auto sel = impl_->select_range(v.dataset.id, begin, n, v.dims);
        const Handle dxpl = impl_->collective_xfer();
        Handle type(PARADISE_H5(H5Dget_type(v.dataset.id)), H5Tclose);
        Handle native(PARADISE_H5(H5Tget_native_type(type.id, H5T_DIR_ASCEND)), H5Tclose);
        std::vector<unsigned char> values(std::max<std::uint64_t>(n, 1) * H5Tget_size(native.id));
        // through the filters: a chunk whose deflated bytes were damaged fails zlib's check
        if (H5Dread(v.dataset.id, native.id, sel.memory.id, sel.file.id, dxpl.id, values.data()) <
            0) {
          unreadable = true;
          std::string message = impl_->tmp_;
          message += ": " + name + " at flat indices " + std::to_string(begin);
          message += ".." + std::to_string(begin + n - 1);
          message += " does not read back (" + h5_error_cause() + ")";
          throw Error(message);
        }
      });
    } catch (const Error& e) {
      impl_->read_failed_ = true;  // on every rank: agreed() threw on each
      if (unreadable) throw UnreadableError(e.what());
      throw;
    }
  }
}

bool SweepFileWriter::close_after_failed_read() noexcept {
  if (!impl_ || !impl_->read_failed_ || impl_->file_.id < 0) return false;
  // the resume only took the "complete" mark off a finished file before the read-back, so
  // the file holds no write error and its collective close is safe; each step is agreed (and
  // timed), and on a failure the caller leaves as after any other
  try {
    impl_->agreed([&] {
      const std::string& path_ = impl_->tmp_;  // for close_checked's messages
      // a finished file stays marked finished: its rename, as a commit whose copy failed
      // said, must still give a file readers take
      if (impl_->uncompleted_) impl_->string_attribute(impl_->file_.id, "complete", "true");
      for (auto& [name, v] : impl_->variables_) v.dataset.close_checked("H5Dclose", path_);
      for (auto& [name, sc] : impl_->scales_) sc.close_checked("H5Dclose", path_);
    });
    impl_->agreed([&] { impl_->file_.close_checked("H5Fclose", impl_->tmp_); });
    impl_->closed_after_read_ = true;
  } catch (const std::exception&) {
    impl_->closed_after_read_ = false;
  }
  return impl_->closed_after_read_;
}

void SweepFileWriter::flush() {
  const std::string& path_ = impl_->path_;
  impl_->agreed([&] { PARADISE_H5(H5Fflush(impl_->file_.id, H5F_SCOPE_GLOBAL)); });
  impl_->flushed_ = true;
}

void SweepFileWriter::commit() {
  // the last thing written: readers tell a finished file from a checkpointed OUT.h5.tmp (a
  // failed rename may leave one that has it: a resume then keeps it)
  impl_->agreed([&] {
    const std::string& path_ = impl_->path_;  // for PARADISE_H5's message
    if (PARADISE_H5(H5Aexists(impl_->file_.id, "complete")) <= 0)
      impl_->string_attribute(impl_->file_.id, "complete", "true");
  });
  impl_->close_all();
  // Rank 0 alone rewrites PATH.tmp in the canonical layout (canonical_copy.cpp: same sweep,
  // same bytes, whatever the rank count or checkpoints) and renames the copy to PATH; the
  // others wait for it: --io-timeout plus 1 s per 10 MB of the file.
  std::uint64_t bytes[1] = {0};
  if (impl_->comm_.is_root()) {
    std::error_code ec;
    bytes[0] = std::filesystem::file_size(impl_->tmp_, ec);
  }
  impl_->comm_.allreduce_max(std::span<std::uint64_t>(bytes));
  const std::string copy = impl_->tmp_ + ".canonical";
  impl_->complete_ = true;  // from here PATH.tmp is kept if the copy fails
  impl_->agreed(
      [&] {
        if (!impl_->comm_.is_root()) return;
        try {
          const auto c0 = std::chrono::steady_clock::now();
          replace_leftover(copy);
          canonical_copy(impl_->tmp_, copy);
          std::error_code ec;
          std::filesystem::rename(copy, impl_->path_, ec);
          if (ec) {
            std::remove(copy.c_str());
            throw Error("cannot rename " + copy + " to " + impl_->path_ + ": " + ec.message());
          }
          std::remove(impl_->tmp_.c_str());
          impl_->copy_seconds_ =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
        } catch (const std::exception& e) {
          throw Error(e.what() + impl_->kept());
        }
      },
      impl_->deadline_.seconds + static_cast<double>(bytes[0]) / 10e6,
      "rank 0's canonical copy of " + impl_->tmp_ + " (a slow or stuck file system?)");
  impl_->committed_ = true;
}

}  // namespace paradise::io
