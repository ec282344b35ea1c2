// What `paradise sweep` prints: the dry-run plan, progress on stderr, the final summary.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "paradise/engine/sweep_request.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::engine {

/// Axes, point count, output size, memory-limit searches and the times estimated from a
/// timed sample of points and one of each table's search entries.
void print_dry_run(std::ostream& out, const std::string& file, const SweepFile& f,
                   const sweep::Evaluator& e, sweep::MemlimitSearch& search, double output_bytes,
                   std::uint64_t searches);

/// "\r<done> / <total> points, <rate> points/s, ETA <s> s".
void report_progress(std::ostream& err, double seconds, double done, double total);

/// How a run went: wall time, the part rank 0 spent in output writes (maps, flushes,
/// groups, close), the output's size and the largest peak resident set of any rank.
struct RunStats {
  int ranks = 1;
  double seconds = 0, write_seconds = 0;
  double copy_seconds = 0;    ///< of write_seconds: rank 0's canonical copy at the end
  double output_bytes = 0;    ///< 0 without output
  double peak_rss_bytes = 0;  ///< max over ranks
  double evaluated = 0;       ///< points evaluated by this run (fewer when it resumed)
};

/// This process's peak resident set size in bytes (getrusage).
double peak_rss_bytes();

/// The sweep's training settings in words (predict's `training` line): "mixed precision,
/// adam optimizer, ...", with "the precision axis" etc. for a setting swept over several,
/// and the systems' default precision (Evaluator::default_precision_text) where none is given.
std::string training_text(const SweepFile& f, const sweep::Evaluator& e);

/// Points, ranks, time and rate, feasible fraction, the output path with its size and write
/// rate, peak memory per rank, the training settings, and the fastest feasible configuration
/// per model.
void print_summary(std::ostream& out, const std::string& file, const std::string& output,
                   const SweepFile& f, const sweep::Evaluator& e, const sweep::Summary& s,
                   const RunStats& run);

}  // namespace paradise::engine
