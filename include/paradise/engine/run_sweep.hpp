// The sweep engine: evaluates every point of a sweep's grid on the ranks of a communicator,
// in work chunks taken round-robin; after every round the ranks agree on failures (so a full
// disk ends every rank, not just one) and, every checkpoint_s seconds, flush the file and
// record the finished chunks for a resume. Then the memory-limit searches, the merged
// summary (counts, fastest points, Pareto fronts) and the HDF5 file (output_layout.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/engine/sweep_request.hpp"
#include "paradise/mpi/comm.hpp"

namespace paradise::engine {

/// How to run a sweep (`paradise sweep`'s options).
struct SweepOptions {
  std::string output;         ///< the HDF5 file to write; empty: none
  bool resume = false;        ///< continue from OUTPUT.tmp and its checkpoint OUTPUT.resume
  bool dry_run = false;       ///< print axes, points, output size and time; evaluate nothing
  bool quiet = false;         ///< no progress on stderr
  double checkpoint_s = 60;   ///< seconds between checkpoints (0: none)
  double io_timeout_s = 300;  ///< seconds ranks wait for each other after a collective write
  std::vector<std::string> command_line;  ///< the arguments after "paradise sweep" (recorded)
  /// The most points of a work chunk and of a map's file chunk (tests take fewer, to spread
  /// a small grid over the ranks; the file's chunk shape follows).
  std::uint64_t chunk_points = 65536;
};

/// InputError for options that cannot work, before MPI starts and the sweep file is read:
/// --resume without -o, a timeout or interval out of range, -o '' (`output_given`: -o was
/// on the command line), the sweep file itself as the output.
void check_options(const SweepOptions& o, const std::string& sweep_path, bool output_given);

/// Runs the sweep `f` (read on every rank) on `comm` (collective) and returns the exit code;
/// rank 0 prints the plan (dry run) or the summary on stdout, progress on stderr. Bad input
/// (the grid, the output path, sizes over the file's limits, a checkpoint that is not this
/// sweep's): InputError on rank 0, exit code 2 on the others. An agreed I/O failure or a stop
/// signal ends the process on every rank (exit code 2, or 128 + the signal).
int run_sweep(const SweepFile& f, const SweepOptions& o, const mpi::Comm& comm);

}  // namespace paradise::engine
