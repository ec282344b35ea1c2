// Reading sweep files (INI) with Boost.Program_options; errors name file, line, key, value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::app {

struct SweepFile {
  std::string path;
  std::string text;  ///< the whole file, stored in the output
  sweep::SweepSpec spec;
  std::string storage = "maps";     ///< full | maps | summary
  std::vector<std::string> reduce;  ///< summary: the axes the stored maps are reduced over
  double max_output_bytes = 64e9;   ///< refuse larger outputs before any work
  sweep::ParetoSpec pareto;
  sweep::MemlimitSpec memlimit;
  double max_searches = 1e6;  ///< refuse memory-limit searches with more entries
};

SweepFile read_sweep_file(const std::string& path);

/// Bytes per stored cell at a storage level (status + memory for maps; + 5 doubles full;
/// status + 2 doubles per reduced cell for summary).
double bytes_per_cell(const std::string& storage);

}  // namespace paradise::app
