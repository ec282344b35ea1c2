// Sweep files are read and checked by the sweep module (paradise/sweep/sweep_file.hpp).
#include "sweep_file.hpp"

#include <utility>

#include "paradise/sweep/sweep_file.hpp"

namespace paradise::app {

double bytes_per_cell(const std::string& storage) {
  if (storage == "summary") return 1 + 8 + 8;
  return storage == "full" ? 1 + 8 + 1 + 4 * 8 : 1 + 8;
}

SweepFile read_sweep_file(const std::string& path) {
  sweep::SweepFile read = sweep::read_sweep_file(path);
  SweepFile f;
  f.path = std::move(read.path);
  f.text = std::move(read.text);
  f.spec = std::move(read.spec);
  f.storage = std::move(read.storage);
  f.reduce = std::move(read.reduce);
  f.max_output_bytes = read.max_output_bytes;
  f.pareto = std::move(read.pareto);
  f.memlimit = std::move(read.memlimit);
  f.max_searches = read.max_searches;
  return f;
}

}  // namespace paradise::app
