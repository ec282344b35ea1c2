// Evaluates grid points: the per-(model, dataset, system) workloads are built once, every
// point is then one strategy::predict call.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "paradise/implementation/profile.hpp"
#include "paradise/model/convergence.hpp"
#include "paradise/strategy/compute_memo.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/sweep/grid.hpp"
#include "paradise/sweep/memlimit.hpp"
#include "paradise/system/system.hpp"

namespace paradise::sweep {

/// A value of the network bandwidth axis: as the sweep file writes it (the output's
/// coordinate, Gbit/s per GPU) and in bytes per second, converted once where it is read.
struct NetworkBandwidth {
  std::int64_t gbps = 0;
  double Bps = 0;
};
/// A value of the network latency axis: as written (microseconds, real) and in seconds.
struct NetworkLatency {
  double us = 0;
  double s = 0;
};
/// The sweep file's units to SI: Gbit/s -> bytes/s (x 1e9 / 8); microseconds -> seconds.
NetworkBandwidth gbit_per_s(std::int64_t gbps);
NetworkLatency microseconds(double us);

struct SweepSpec {
  std::vector<std::string> models, datasets, systems, strategies;
  std::vector<std::int64_t> gpus, batch;
  strategy::Variant variant = strategy::Variant::Paradl;
  /// The strategies' shapes (docs/cost-model.md §searched-shapes), each as a training
  /// setting (one value: every point's; several: an axis, after implementation): spatial
  /// and data+spatial's split (never empty), the hybrids' group size p2 and the pipelines'
  /// micro-batches (empty: the defaults, GPUs per node and as many as stages), counts or
  /// strategy::kSearched (auto: the best per point).
  std::vector<strategy::SpatialSplit> spatial_splits{strategy::SpatialSplit::W};
  std::vector<std::int64_t> p2s, segment_counts;
  /// Optional axes (empty: absent from the grid). resolution: every spatial extent of the
  /// dataset's sample set to the value (a cube for 3-D data); network_*: the levels above
  /// one node at that per-GPU bandwidth and latency, each in SI units and as written.
  std::vector<std::int64_t> resolution;
  /// How the samples per epoch follow the resolution axis and memory-limit sides.
  model::SamplesAtSide resolution_samples = model::SamplesAtSide::Fixed;
  std::vector<NetworkBandwidth> network_bandwidth;
  std::vector<NetworkLatency> network_latency;
  /// Input axes (empty: absent): a node's CPU cores, its storage read rate and the file
  /// system's aggregate rate (system files' [input] keys; GB/s as written).
  std::vector<std::int64_t> input_cpu_cores;
  std::vector<double> input_node_read_GBps, input_filesystem_GBps;
  /// The training run's settings (paradise variant; empty: the default, fp32, momentum,
  /// ZeRO stage 0, no recomputation): one value is every point's; several make an axis,
  /// precision, optimizer, zero_stage, recompute, between strategy and gpus.
  std::vector<strategy::Precision> precisions;
  std::vector<strategy::Optimizer> optimizers;
  std::vector<std::int64_t> zero_stages;
  std::vector<std::uint8_t> recomputes;  ///< 0 or 1
  /// Implementation profiles (paradise variant), built-in names or *.impl files as written;
  /// empty: the default, pytorch-nccl. Several make the implementation axis, after recompute.
  std::vector<std::string> implementations;
  /// An evaluation pass per epoch over this many samples (paradise; 0: none), every point's.
  std::int64_t eval_samples = 0;
  /// Measured per-layer times (layer-times CSV) by "MODEL@SYSTEM" or, for every system,
  /// "MODEL"; the model's compute is then parametrised by them (docs/cost-model.md
  /// §paradl-compute).
  std::map<std::string, std::string> layer_times;
  /// [convergence]: epochs to target by MODEL or MODEL@DATASET (else the built-ins, without
  /// a resolution axis); `needs_epochs` (a to-train objective) refuses a pair with none.
  std::map<std::string, model::Convergence> convergence;
  bool needs_epochs = false;
  /// Refuse workloads (one per value of the axes before strategy, each a model's per-layer
  /// tables, built on every rank) that would hold more than this many bytes per rank.
  double max_workload_bytes = 2e9;
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
  double epoch_step_overhead_s = 0;  ///< the framework's time per step, over the epoch
  double epochs_to_target = 0;       ///< at the point's batch; NaN where not known
  /// The shape used (strategy::Prediction's; 0 where the strategy has none or the point
  /// is invalid): group size, micro-batches, and the split as 1 + strategy::SpatialSplit.
  std::int32_t p2_used = 0, segments_used = 0;
  std::uint8_t spatial_split_used = 0;
};

/// Which shapes a sweep searches: auto among the values of a setting that one of its
/// strategies has. Their values used are kept beside the maps (p2_chosen, ...).
struct Searched {
  bool p2 = false, segments = false, spatial_split = false;
  bool any() const { return p2 || segments || spatial_split; }
};
Searched searched_shapes(const SweepSpec& s);
/// PointResult::spatial_split_used in words: "none" (0), "w", "hw" or "all".
std::string_view spatial_split_used_name(std::uint8_t code);

class Evaluator {
 public:
  /// Validates every name and builds the workloads; throws InputError naming the value.
  explicit Evaluator(const SweepSpec& spec);
  // the points' configurations view the names of implementations_: never copied
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;
  const Grid& grid() const { return grid_; }
  PointResult evaluate(std::uint64_t index) const;
  /// Why the points of a workload (a value of the axes before strategy) are all invalid;
  /// empty if usable.
  const std::string& unusable_reason(std::uint64_t workload) const {
    return unusable_[workload / variants_];
  }
  /// A point as workload number and configuration.
  struct Point {
    std::uint64_t workload = 0;
    strategy::Config config;
  };
  Point point(std::uint64_t index) const;
  /// The workload of a value of the axes before strategy. The system variants of one
  /// model, dataset, resolution and system share their tables: the reference is to that
  /// shared workload with this variant's system, valid until the next call of workload()
  /// or evaluate() (one Evaluator per thread).
  const strategy::Workload& workload(std::uint64_t w) const;
  /// The workload's layer sums and compute memo (shared by its system variants), for
  /// searches over its configurations on this Evaluator's thread.
  const strategy::LayerSums& sums(std::uint64_t w) const { return sums_[w / variants_]; }
  strategy::ComputeMemo* memo(std::uint64_t w) const { return &memos_[w / variants_]; }
  /// The workload's model, dataset, system and network, re-sizeable (memory-limit searches).
  const ResolutionFamily& family(std::uint64_t w) const { return families_[w]; }
  /// The system of the spec's i-th `systems` value as read when the sweep started (a
  /// catalogue entry or a system file), before any network axis changes it.
  const system::System& system(std::size_t i) const { return named_systems_[i]; }
  /// Without a precision in the sweep (paradise variant): each system's default precision
  /// (strategy::default_precision), "tf32" when every workload takes the same, else
  /// "fp32 on abci, tf32 on dgx-a100"; empty when the sweep gives a precision.
  std::string default_precision_text() const;
  /// The epochs-to-target model of each model and dataset that has one, one line each
  /// ("resnet50 on imagenet: 33.66 x (1 + B / 44296), SOURCE"); empty if none has.
  std::string convergence_text() const;

 private:
  // The point's precision when the sweep gives none: its base workload's default.
  void set_default_precision(strategy::Config& c, std::uint64_t base) const {
    if (c.precision_by_default) c.precision = default_precisions_[base];
  }
  SweepSpec spec_;
  Grid grid_;
  std::vector<strategy::Kind> kinds_;
  std::vector<system::System> named_systems_;  // per spec.systems value
  // per spec.implementations value (or the default): what settings_' names view
  std::vector<implementation::Implementation> implementations_;
  // every combination of the training settings (their axes, or their one value), in grid
  // order: a point's configuration is one of these with its strategy, GPUs and batch
  std::vector<strategy::Config> settings_;
  std::uint64_t variants_ = 1;  // system variants per base (network x input values)
  // per base (model x dataset x resolution x system), shared by its system variants
  mutable std::vector<strategy::Workload> bases_;        // the system: installed_'s variant
  mutable std::vector<std::uint64_t> installed_;         // the workload whose system bases_ holds
  std::vector<std::string> unusable_;                    // why its points are invalid
  std::vector<strategy::LayerSums> sums_;                // computed once
  std::vector<strategy::Precision> default_precisions_;  // strategy::default_precision
  std::vector<model::Convergence> convergence_;          // epochs_min 0: not known
  mutable std::vector<strategy::ComputeMemo> memos_;     // compute: the same on any network
  // per workload (base x system variant)
  std::vector<system::System> systems_;  // empty without network axes
  std::vector<ResolutionFamily> families_;
  mutable strategy::Prediction scratch_;  // reused by evaluate(): one Evaluator per thread
};

/// A configuration with the sweep's variant and each training setting that has one value
/// (a setting swept over several, or not given, keeps the default): what every point
/// shares, for the file's root attributes and the printed summary.
strategy::Config one_valued_settings(const SweepSpec& s);

/// The axes of a sweep in storage order: model, dataset, [resolution], system,
/// [network_bandwidth_gbps], [network_latency_us], [input_cpu_cores_per_node],
/// [input_node_read_GBps], [input_filesystem_GBps], strategy, [precision], [optimizer],
/// [zero_stage], [recompute], [implementation], [spatial_split], [p2], [segments], gpus,
/// batch (a training setting with several values is an axis). The axes before strategy define the
/// workloads; the last ones vary fastest.
Grid make_grid(const SweepSpec& spec);

}  // namespace paradise::sweep
