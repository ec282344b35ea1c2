// Private to src/io: RAII handles, the checker of every HDF5 call, and the writer's state.
#pragma once

#include <hdf5.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/io/watchdog.hpp"

namespace paradise::io {

/// Seconds a rank whose own collective step failed waits for the others to agree on it
/// before it ends the job (they are then stuck in the call it left; issue 35, item 6).
inline constexpr double kFailedRankGrace_s = 5;

// The innermost description on HDF5's error stack (e.g. "file write failed: ... errno = 28,
// error message = 'No space left on device'"), or "" (automatic printing is off).
std::string h5_error_cause();

// Rewrites the closed sweep file `from` as `to` (serially, by one process) in a layout
// that depends only on its content (canonical_copy.cpp); `to` is removed on failure.
void canonical_copy(const std::string& from, const std::string& to);

// Negative ids/status are errors naming the function, the file and HDF5's cause.
inline hid_t check(hid_t id, const char* call, const std::string& path) {
  if (id < 0) {
    const std::string c(call), cause = h5_error_cause();
    throw Error("HDF5 " + c.substr(0, c.find('(')) + " failed on " + path +
                (cause.empty() ? "" : ": " + cause));
  }
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
  // Forgets the id without closing it (after an I/O failure, see SweepFileWriter::abandon).
  void release() { id = -1; }
  // Closes now; throws Error naming `what` if HDF5 reports a failure.
  void close_checked(const char* what, const std::string& path) {
    const hid_t i = std::exchange(id, -1);
    if (i >= 0 && close && close(i) < 0) throw Error(std::string(what) + " failed on " + path);
  }
};

// Object creation without modification times in the object headers (H5Pset_obj_track_times):
// the same sweep then writes the same bytes whenever it runs. `plist`: an object (dataset,
// group or file) creation property list.
inline void untimed(hid_t plist) {
  if (H5Pset_obj_track_times(plist, false) < 0) throw Error("H5Pset_obj_track_times failed");
}
// A dataset creation property list with nothing else set.
inline Handle untimed_dcpl() {
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (dcpl.id < 0) throw Error("H5Pcreate failed");
  untimed(dcpl.id);
  return dcpl;
}

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
  std::uint64_t chunk_points_ = 65536;  // the most points per chunk of new variables
  std::map<std::string, Variable> variables_;
  std::map<std::string, Handle> scales_;
  bool committed_ = false, flushed_ = false;
  bool complete_ = false;     // PATH.tmp holds every value and was closed (commit's copy failed)
  double copy_seconds_ = 0;   // commit's canonical copy, on rank 0
  bool failed_ = false;       // an I/O failure was agreed: no HDF5 call may touch the file again
  bool read_failed_ = false;  // the agreed failure was check_readable's read-back
  bool closed_after_read_ = false;  // close_after_failed_read closed the file on every rank
  bool uncompleted_ = false;        // the resume took a finished file's "complete" mark off

  // Runs `step` (collective HDF5 work) and agrees on its outcome on every rank: if it threw
  // io::Error anywhere, every rank throws (that rank's error, PeerError on the others), so
  // no rank goes on into the next collective while another has given up.
  // `seconds`: the deadline, when not the writer's; `waiting_for`: what the ranks wait for
  // in the step, when not a collective HDF5 call. Any exception of the step counts.
  template <class Step>
  void agreed(Step&& step, double seconds = -1, const std::string& waiting_for = "");

  SweepFileWriter::Deadline deadline_;

  Impl(std::string path, const mpi::Comm& comm, bool resume, SweepFileWriter::Deadline deadline);
  void string_attribute(hid_t obj, const std::string& name, const std::string& value);
  void int_attribute(hid_t obj, const std::string& name, int value);
  // The file and memory selections of the flat range [begin, begin + n) of `dataset`
  // (row-major over `dims`): the at most 2k-1 hyperslabs of cover_range, or none if n is 0.
  struct Selection {
    Handle file, memory;
  };
  Selection select_range(hid_t dataset, std::uint64_t begin, std::uint64_t n,
                         const std::vector<std::uint64_t>& dims);
  // A transfer property list for collective I/O.
  Handle collective_xfer();
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
  // Collective: flushes, then closes every handle with checked calls (agreed).
  void close_all();
  // Forgets every handle without HDF5 calls; PATH.tmp is removed, unless checkpointed or
  // complete, by
  // rank 0 or by this rank when `here` (a rank giving up alone before an abort).
  void abandon(bool here = false) noexcept;
  // Called on the watchdog's thread when a collective step runs past `seconds`: says so
  // (through the deadline's report), removes PATH.tmp unless kept, and ends the process.
  [[noreturn]] void give_up_inside(double seconds, const std::string& waiting_for) noexcept;
  /// Reports `why` (and what is kept), removes an unfinished temporary and ends the process
  /// with exit 2, which makes the launcher end the other ranks.
  [[noreturn]] void end_job(const std::string& why) noexcept;
  // What an error message adds about PATH.tmp: kept as a checkpoint, as a finished file, or
  // nothing (removed).
  std::string kept() const;
};

template <class Step>
void SweepFileWriter::Impl::agreed(Step&& step, double seconds, const std::string& waiting_for) {
  if (seconds < 0) seconds = deadline_.seconds;
  std::string error;
  {
    // a peer stopped (SIGSTOP, a hung node) leaves this rank blocked inside the collective
    // call itself, where no agreement's deadline reaches it: past the deadline the step
    // ends the process (the launcher then ends the others)
    const Watchdog stuck(seconds, [&] { give_up_inside(seconds, waiting_for); });
    try {
      step();
    } catch (const std::exception& e) {  // io::Error, and also a filesystem_error or
      error = e.what();                  // bad_alloc: every rank must reach the agreement
      if (error.empty()) error = "unknown error";
    }
  }
  // this rank's own failure (a full disk) is said at once when the others do not agree
  // within a second: they may be stuck in a collective call, up to the deadline (issue 35)
  std::optional<Watchdog> tell, end;
  if (!error.empty() && comm_.size() > 1 && deadline_.report)
    tell.emplace(std::min(1.0, seconds), [&] {
      deadline_.report(error +
                       " (said now: the other ranks have not yet agreed on the failure; "
                       "they are given up to " +
                       std::to_string(static_cast<long>(seconds)) + " s, --io-timeout)");
    });
  // ... and a few seconds on, this rank ends the job: the others are then most likely inside
  // the collective call this rank left, which cannot end without it, and would wait out the
  // whole deadline. The run has failed either way; only the wait is saved.
  if (!error.empty() && comm_.size() > 1)
    end.emplace(std::min(kFailedRankGrace_s, seconds), [&] {
      end_job(error + " (the other ranks did not agree on the failure within " +
              std::to_string(static_cast<long>(std::min(kFailedRankGrace_s, seconds))) +
              " s: they are stuck in a collective HDF5 call that needs this rank; ending the "
              "job)");
    });
  const auto give_up = [&]() {
    abandon(true);
    if (deadline_.leaving) deadline_.leaving();
    if (!deadline_.report) return;
    std::string why = error;
    if (why.empty())
      why = "the ranks did not agree within " + std::to_string(seconds) + " s after " +
            (waiting_for.empty() ? "a collective HDF5 call on " + tmp_ +
                                       " (a rank is stuck in it: I/O failure elsewhere?)"
                                 : waiting_for);
    why += kept();
    deadline_.report(why);
  };
  const bool failed = comm_.allreduce_or_within(!error.empty(), seconds, give_up);
  end.reset();
  tell.reset();
  if (!failed) return;
  failed_ = true;
  if (!error.empty()) throw Error(error);
  throw PeerError("an HDF5 call failed on another rank while writing " + tmp_);
}

}  // namespace paradise::io
