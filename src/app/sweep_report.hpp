// What `paradise sweep` prints: the dry-run plan, progress on stderr, the final summary.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/summary.hpp"
#include "sweep_file.hpp"

namespace paradise::app {

/// Axes, point count, output size, memory-limit searches and the time estimated from a
/// timed sample of points.
void print_dry_run(std::ostream& out, const std::string& file, const SweepFile& f,
                   const sweep::Evaluator& e, double output_bytes, std::uint64_t searches);

/// "\r<done> / <total> points, <rate> points/s, ETA <s> s".
void report_progress(std::ostream& err, double seconds, double done, double total);

/// Points, ranks, time, feasible fraction, the output path and the fastest feasible
/// configuration per model.
void print_summary(std::ostream& out, const std::string& file, const std::string& output,
                   const sweep::Grid& grid, const sweep::Summary& s, int ranks, double seconds);

}  // namespace paradise::app
