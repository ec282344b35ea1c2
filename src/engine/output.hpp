// The layout of a sweep's HDF5 file (docs/output-format.md): root attributes, one
// coordinate per axis, the maps (per point, or reduced over named axes), and the groups
// "pareto" and "memlimit". Every function is collective.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "paradise/engine/sweep_request.hpp"
#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::engine {

/// Creates (or, resuming, reopens) the file with its attributes, coordinates and maps, whose
/// chunks hold up to `chunk_points` points (the work chunks: each file chunk written once).
/// `args`: the command line after "paradise sweep", recorded in the file.
io::SweepFileWriter open_output(const std::string& path, const SweepFile& f,
                                const std::vector<std::string>& args, const mpi::Comm& comm,
                                const sweep::Evaluator& e,
                                const std::optional<sweep::Reduction>& reduction, bool resume,
                                std::uint64_t chunk_points, io::SweepFileWriter::Deadline deadline);

/// Group "pareto": one row per non-dominated point, groups in grid order; `summary` is the
/// merged one on rank 0 (ignored elsewhere). The shapes `searched` get their values used
/// (p2_chosen, ...), each front point evaluated again on rank 0.
void write_pareto(io::SweepFileWriter& out, sweep::Summary& summary, const mpi::Comm& comm,
                  const sweep::Evaluator& e, const sweep::Searched& searched);

/// Group "systems": per value of the system axis the device memory and the usable part
/// (less the margin) that the points' out-of-memory test used, and GPUs per node, so that
/// a reader needs neither the system file nor the catalogue.
void write_systems(io::SweepFileWriter& out, const sweep::Evaluator& e);

/// Group "memlimit": one array per search, `values[t]` the entries of table t (rank 0), and
/// for an upward search NAME_at_search_end, `at_end[t]`: 1 where its value is a lower bound.
void write_memlimit(io::SweepFileWriter& out, const std::vector<sweep::MemlimitTable>& tables,
                    const std::vector<std::vector<std::int64_t>>& values,
                    const std::vector<std::vector<std::int64_t>>& at_end);

}  // namespace paradise::engine
