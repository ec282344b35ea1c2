// Reading sweep files (docs: README "Sweep files") through the core INI reader: every key
// checked once, here, and its errors named by file, line, key and value.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::sweep {

/// How much of each point the output keeps ([output] storage): every column (full), status
/// and memory per point (maps), or only the Pareto fronts and memory limits, with reduced
/// maps when `reduce` names axes (summary).
enum class Storage { full, maps, summary };

/// "full", "maps" or "summary".
std::string_view storage_name(Storage s);
/// The storage a sweep file's text names; nullopt for any other text.
std::optional<Storage> storage_from_name(std::string_view text);

/// A sweep file's content, checked: the grid and its limits, the output's storage, the
/// Pareto fronts and the memory-limit searches.
struct SweepFile {
  std::string path;
  std::string text;  ///< the whole file, stored in the output
  SweepSpec spec;
  Storage storage = Storage::maps;
  std::vector<std::string> reduce;  ///< summary: the axes the stored maps are reduced over
  double max_output_bytes = 64e9;   ///< refuse larger outputs before any work
  ParetoSpec pareto;
  MemlimitSpec memlimit;
  double max_searches = 1e6;  ///< refuse memory-limit searches with more entries
};

/// Reads and checks a sweep file; throws InputError naming the file, line, key and value.
SweepFile read_sweep_file(const std::string& path);
/// The same from the file's text, read elsewhere (`path` names it in errors and in `path`).
SweepFile parse_sweep_file(std::string text, const std::string& path);

}  // namespace paradise::sweep
