// The memory-limit searches of a sweep (group "memlimit" of its file), over the grid's own
// workloads and configurations: the largest feasible batch for every point of the grid
// without its batch axis; the largest feasible resolution (bisection over a range, integers,
// not only grid values) for every point without its resolution axis; and the fewest GPUs
// of the gpus axis for each resolution of a list, for every point without the gpus axis.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/grid.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::sweep {

struct MemlimitSpec {
  bool batch = true;  ///< largest batch in [batch_lo, batch_hi]
  std::int64_t batch_lo = 1, batch_hi = 1 << 20;
  bool resolution = false;  ///< largest side among lo, lo + step, ..., <= hi
  std::int64_t resolution_lo = 0, resolution_hi = 0, resolution_step = 1;
  std::vector<std::int64_t> sides;  ///< fewest GPUs at each of these sides (empty: none)
};

/// One dense int64 array of the group: dimensions are grid axes (and "side").
struct MemlimitTable {
  std::string name, description;
  std::vector<Axis> axes;
  std::uint64_t entries = 1;
  /// The values come from a search upwards (largest batch, largest side): one at the top of
  /// the search is a lower bound, flagged by at_search_end (the sweep's NAME_at_search_end).
  bool upward = false;
  enum class Kind { LargestBatch, LargestResolution, FewestGpus } kind = Kind::LargestBatch;
};

/// The tables `spec` asks for over `grid`'s axes, with their sizes, from the axes alone: a
/// sweep's size is checked against its limits before any workload is built. InputError for
/// an empty range or a side below 1.
std::vector<MemlimitTable> memlimit_tables(const Grid& grid, const MemlimitSpec& spec);

class MemlimitSearch {
 public:
  MemlimitSearch(const Evaluator& e, const MemlimitSpec& spec);
  const std::vector<MemlimitTable>& tables() const { return tables_; }
  /// Entry `e` (row-major over the table's axes) of table `t`; 0 when nothing fits.
  /// Not const: resized workloads are cached per family.
  std::int64_t value(std::size_t t, std::uint64_t e);
  /// Whether `value`, entry `e` of an upward table `t`, is the top of its search
  /// (batch_at_search_end, side_at_search_end): a lower bound, a larger one may fit, as
  /// `paradise memlimit` says "or more". No prediction; at most a walk over later sides.
  bool at_search_end(std::size_t t, std::uint64_t e, std::int64_t value);
  /// Predictions made so far (for progress and benchmarks).
  std::uint64_t evaluations() const { return evaluations_; }

 private:
  // the grid index of entry e of table t, with the table's missing axes at coordinate 0,
  // and the table's own coordinate of "side" (if any)
  std::uint64_t grid_index(const MemlimitTable& t, std::uint64_t e, std::int64_t* side) const;
  /// The workload at a side, null when the model cannot take it (*too_large: past the
  /// supported sizes). Valid until the next call (the cache is cleared when full).
  const strategy::Workload* at(std::uint64_t workload, std::int64_t side,
                               bool* too_large = nullptr);
  const Evaluator& e_;
  MemlimitSpec spec_;
  std::vector<MemlimitTable> tables_;
  std::vector<std::int64_t> gpus_ascending_;
  struct Sized {
    std::optional<strategy::Workload> workload;
    bool too_large = false;  ///< ResolutionFamily::at's
  };
  std::map<std::pair<std::uint64_t, std::int64_t>, Sized> cache_;
  // per workload: the model takes some side of the resolution range (false: none at all, a
  // 2-D model on 3-D data, or none of the range's sides, e.g. none its poolings halve)
  std::map<std::uint64_t, bool> takes_a_side_;
  bool takes_a_side(std::uint64_t workload);
  SideTaken side_taken(std::uint64_t workload, std::int64_t side);  // at()'s answer at a side
  std::size_t cache_bytes_ = 0;  // the cached workloads' footprints, at most kCacheBytes
  static constexpr std::size_t kCacheBytes = std::size_t{256} << 20;
  std::uint64_t evaluations_ = 0;
};

}  // namespace paradise::sweep
