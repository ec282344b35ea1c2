// What a sweep keeps besides the per-point maps, small whatever the grid: status counts,
// the fastest feasible point per model, and Pareto fronts per group of points. Mergeable
// across ranks exactly (ties go to the lowest grid index, so any rank count gives the same
// result) and serialisable, for gathering on rank 0 and for checkpoints.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/grid.hpp"
#include "paradise/sweep/pareto.hpp"

namespace paradise::sweep {

/// Quantities a Pareto front can minimise.
enum class Objective : std::uint8_t {
  EpochTime,
  IterationTime,
  Gpus,
  GpuHours,
  MemoryPerGpu,
  TimeToTrain,     ///< epochs to target x epoch time (docs/time-to-train.md)
  GpuHoursToTrain  ///< the same x GPUs
};
/// Whether an objective needs the epochs to target.
inline bool to_train(Objective o) {
  return o == Objective::TimeToTrain || o == Objective::GpuHoursToTrain;
}
/// epoch_time, iteration_time, gpus, gpu_hours, memory, time_to_train, gpu_hours_to_train;
/// nullopt for anything else.
std::optional<Objective> objective_from_name(std::string_view name);
/// The name of the stored column: epoch_time_s, iteration_time_s, gpus, gpu_hours,
/// memory_per_gpu_bytes.
std::string_view objective_column(Objective o);
/// The value of an objective at a point run on `gpus` GPUs (GPU-hours per epoch).
double objective_value(Objective o, const PointResult& r, std::int64_t gpus);

/// A subset of a grid's axes, named: the flat (row-major) index of a point's coordinates on
/// those axes, e.g. the Pareto group of a point. Throws InputError for an unknown axis name.
class AxisSubset {
 public:
  AxisSubset(const Grid& grid, const std::vector<std::string>& names);
  std::uint64_t size() const { return size_; }
  std::uint64_t of(std::uint64_t index) const;
  const std::vector<std::size_t>& axes() const { return axes_; }

 private:
  std::vector<std::size_t> axes_;
  std::vector<std::uint64_t> grid_stride_, size_of_;
  std::uint64_t size_ = 1;
};

struct ParetoSpec {
  /// Two or three, distinct: the default epoch time vs. GPUs, memory as a third objective.
  std::vector<Objective> objectives{Objective::EpochTime, Objective::Gpus, Objective::MemoryPerGpu};
  /// The axes whose every combination gets its own front (the rest are searched over).
  /// Precision and optimizer too: mixed precision and SGD win every point, and would hide
  /// fp32 and Adam in a shared front; the implementation, the code the user runs, not a
  /// choice the front makes; ZeRO and recomputation are searched over (the front then says
  /// where they pay).
  std::vector<std::string> group{"model",     "dataset",        "resolution", "precision",
                                 "optimizer", "implementation", "batch"};
};

/// The fastest feasible point of a model (plain bytes, so it can be gathered).
struct Best {
  double epoch_time_s = 0;  ///< meaningful only when found
  std::uint64_t index = 0;
  std::uint64_t found = 0;  ///< 0 or 1
};

class Summary {
 public:
  /// `pareto.group` names absent from the grid among optional_axis()'s are skipped.
  Summary(const Grid& grid, const ParetoSpec& pareto);
  void add(std::uint64_t index, const PointResult& r);
  /// Adds another summary's bytes (from to_bytes of a summary of the same grid and spec).
  void merge(std::span<const std::uint8_t> bytes);
  std::vector<std::uint8_t> to_bytes();

  /// Points by strategy::Status (ok, out of memory, invalid).
  const std::array<std::uint64_t, 3>& counts() const { return counts_; }
  const std::vector<Best>& best() const { return best_; }  ///< per value of the model axis
  /// Every group's front, groups in order, each sorted by the first objective (then the
  /// second, the third and the index).
  std::vector<Candidate> fronts();
  const ParetoSpec& pareto() const { return pareto_; }

 private:
  void add_candidate(const Candidate& c);
  void compact();
  const Grid* grid_;
  ParetoSpec pareto_;
  AxisSubset group_;
  std::size_t gpus_axis_;
  std::uint64_t gpus_stride_ = 1, per_model_ = 1;
  std::array<std::uint64_t, 3> counts_{};
  std::vector<Best> best_;
  std::vector<std::vector<Candidate>> groups_;
  std::vector<std::uint64_t> compact_at_;  ///< per group: the size that triggers compaction
};

}  // namespace paradise::sweep
