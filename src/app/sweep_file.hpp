// Reading sweep files (INI) with Boost.Program_options; errors name file, line, key, value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/sweep/evaluator.hpp"

namespace paradise::app {

struct SweepFile {
  std::string path;
  std::string text;  ///< the whole file, stored in the output
  sweep::SweepSpec spec;
  std::string storage = "maps";    ///< full | maps | summary
  double max_output_bytes = 64e9;  ///< refuse larger outputs before any work
  std::vector<std::string> pareto_group{"model", "dataset", "system", "batch"};
};

SweepFile read_sweep_file(const std::string& path);

/// Bytes per point stored at a storage level (status + memory for maps; + 5 doubles full).
double bytes_per_point(const std::string& storage);

}  // namespace paradise::app
