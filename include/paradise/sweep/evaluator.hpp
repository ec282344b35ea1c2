// Evaluates grid points: the per-(model, dataset, system) workloads are built once, every
// point is then one strategy::predict call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/sweep/grid.hpp"

namespace paradise::sweep {

struct SweepSpec {
  std::vector<std::string> models, datasets, systems, strategies;
  std::vector<std::int64_t> gpus, batch;
  strategy::Variant variant = strategy::Variant::Paradl;
};

/// What is stored per point (fixed-size, for the maps).
struct PointResult {
  std::uint8_t status = 0;  ///< strategy::Status
  std::uint8_t limit = 0;   ///< strategy::Limit
  double memory_per_gpu_bytes = 0;
  double epoch_time_s = 0;
  double iteration_time_s = 0;
  double epoch_compute_s = 0;
  double epoch_communication_s = 0;
};

class Evaluator {
 public:
  /// Validates every name and builds the workloads; throws InputError naming the value.
  explicit Evaluator(const SweepSpec& spec);
  const Grid& grid() const { return grid_; }
  PointResult evaluate(std::uint64_t index) const;
  /// Why the points of a (model, dataset, system) combination are all invalid; empty if usable.
  const std::string& unusable_reason(std::uint64_t workload) const { return unusable_[workload]; }

 private:
  SweepSpec spec_;
  Grid grid_;
  std::vector<strategy::Kind> kinds_;
  std::vector<strategy::Workload> workloads_;  // model-major, then dataset, then system
  std::vector<std::string> unusable_;          // per workload: why its points are invalid
  std::vector<strategy::LayerSums> sums_;      // per workload, computed once
  mutable strategy::Prediction scratch_;       // reused by evaluate(): one Evaluator per thread
};

/// The axes of a sweep in storage order: model, dataset, system, strategy, gpus, batch.
Grid make_grid(const SweepSpec& spec);

}  // namespace paradise::sweep
