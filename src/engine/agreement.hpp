// How the ranks of a sweep agree: on a step's failure (together) and on the summary of
// their chunks (merge_on_root).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::engine {

/// Runs `step` on every rank and agrees on its outcome. If it threw anywhere, rank 0 prints
/// the first failing rank's own message (a peer's "failed on another rank" only if there is
/// nothing better), the output is abandoned (PATH.tmp removed unless it holds a checkpoint)
/// and every rank ends with exit code 2: through MPI_Finalize while no file is open, else
/// after a barrier without it: parallel HDF5 would close the file there, and its close is not
/// safe after a write error (mpiexec's own exit code may then be a signal's: comm.hpp).
/// A kept value that does not read back (check_readable) says to start over instead.
void together(const mpi::Comm& comm, const std::string& output,
              std::optional<io::SweepFileWriter>& out, const std::function<void()>& step);

/// Every rank's summary merged into `into` on rank 0 (the others' `into` is left as it is).
void merge_on_root(sweep::Summary& mine, const mpi::Comm& comm, sweep::Summary& into);

}  // namespace paradise::engine
