// What a sweep is asked to do: the sweep file's content (grid, storage, reduction, Pareto
// fronts, memory-limit searches, limits), read by the CLI and run by engine::run_sweep.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/summary.hpp"

namespace paradise::engine {

/// How much of each point the output keeps ([output] storage): every column (full), status
/// and memory per point (maps), or only the Pareto fronts and memory limits, with reduced
/// maps when `reduce` names axes (summary).
enum class Storage { full, maps, summary };

/// "full", "maps" or "summary".
std::string_view storage_name(Storage s);
/// The storage a sweep file's text names; nullopt for any other text.
std::optional<Storage> storage_from_name(std::string_view text);

struct SweepFile {
  std::string path;
  std::string text;  ///< the whole file, stored in the output
  sweep::SweepSpec spec;
  Storage storage = Storage::maps;
  std::vector<std::string> reduce;  ///< summary: the axes the stored maps are reduced over
  double max_output_bytes = 64e9;   ///< refuse larger outputs before any work
  sweep::ParetoSpec pareto;
  sweep::MemlimitSpec memlimit;
  double max_searches = 1e6;  ///< refuse memory-limit searches with more entries
};

}  // namespace paradise::engine
