// One run of the sweep engine (run_sweep.hpp), step by step; each step is collective.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint.hpp"
#include "map_buffers.hpp"
#include "output_lock.hpp"
#include "paradise/engine/run_sweep.hpp"
#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::engine {

/// The memory-limit tables as gathered on rank 0: each entry's value, and for an upward
/// search whether it is the top of its search (a lower bound).
struct Limits {
  std::vector<std::vector<std::int64_t>> values, at_end;
};

class SweepRun {
 public:
  SweepRun(const SweepFile& f, const SweepOptions& o, const mpi::Comm& comm)
      : f_(f), o_(o), comm_(comm) {}
  int run();

 private:
  using Clock = std::chrono::steady_clock;

  // inputs (sweep_plan.cpp): InputError for what cannot be run
  void build();
  void size_output();
  void guard_output();
  void plan_chunks();
  void resume();
  void check_checkpoint(const Checkpoint& c) const;
  // the run (run_sweep.cpp)
  void open();
  void read_back();
  void evaluate_chunks();
  void evaluate_chunk(std::uint64_t chunk, MapBuffers& buf);
  void report_progress_after(std::uint64_t round);
  void agree(bool due, std::uint64_t done);
  void checkpoint(std::uint64_t done);
  [[noreturn]] void stop(int signal, std::uint64_t done);
  Limits search_limits();
  void finish(const Limits& limits);
  int print_summary_on_root();
  void timed(const std::function<void()>& step);
  bool store() const { return out_.has_value() && maps_; }
  std::uint64_t done_before(std::uint64_t chunk) const { return (*ranges_)[chunk].first; }

  const SweepFile& f_;
  const SweepOptions& o_;
  const mpi::Comm& comm_;
  std::optional<sweep::Evaluator> evaluator_;
  std::optional<sweep::Reduction> reduction_;
  std::optional<sweep::MemlimitSearch> search_;
  std::optional<sweep::Summary> mine_;    ///< this rank's chunks
  std::optional<sweep::Summary> merged_;  ///< rank 0: the checkpointed chunks', then all
  std::uint64_t units_ = 0;               ///< points, or reduced cells
  std::uint64_t per_unit_ = 1;            ///< points per unit
  std::uint64_t unit_chunk_ = 0;          ///< the most units of a work chunk
  std::uint64_t chunks_ = 0, first_chunk_ = 0, searches_ = 0;
  double out_bytes_ = 0;  ///< the maps before compression
  bool maps_ = false;     ///< whether the file has maps
  std::optional<io::ChunkRanges> ranges_;
  std::string layout_, inputs_;     ///< what a checkpoint must match
  std::optional<OutputLock> lock_;  ///< rank 0's, held to the end (after out_ is gone)
  std::optional<io::SweepFileWriter> out_;
  Clock::time_point t0_, last_report_, last_checkpoint_;
  double write_s_ = 0;  ///< in output writes (each collective, so rank 0's is every rank's)
};

}  // namespace paradise::engine
