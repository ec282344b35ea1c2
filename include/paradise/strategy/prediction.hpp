// What the oracle predicts for one configuration: time and memory, by part, and a status.
// An infeasible configuration is data (status + reason), never an exception.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace paradise::strategy {

enum class Status : std::uint8_t { Ok = 0, OutOfMemory = 1, Invalid = 2 };
/// What bounds a configuration: Framework where the implementation's time per step is the
/// largest of compute, exposed communication and it.
enum class Limit : std::uint8_t {
  None = 0,
  Compute = 1,
  Communication = 2,
  Memory = 3,
  Input = 4,
  Framework = 5
};

std::string_view status_name(Status s);
std::string_view limit_name(Limit l);

/// One communication component, per epoch.
/// Names are views of static strings, so that a sweep allocates nothing per point.
struct CommPart {
  std::string_view name;        ///< e.g. "gradient allreduce", "forward allgather"
  std::string_view collective;  ///< e.g. "allreduce/ring"
  std::string_view phase;       ///< IO, FB or GE (ParaDL's phases, TR §III)
  std::int64_t gpus = 0;        ///< communicator size
  double epoch_s = 0;
  /// How its bytes travel (implementation::transport_name: "gpu-direct" or "host-staged").
  std::string_view transport = "gpu-direct";
  double epoch_overhead_s = 0;  ///< the implementation's per-call overhead, within epoch_s
};

/// One memory component, bytes per GPU.
struct MemPart {
  std::string_view name;  ///< a static string
  double bytes = 0;
};

/// Times and memory are NaN (missing) when the status is invalid, with no parts.
struct Prediction {
  Status status = Status::Ok;
  std::string reason;  ///< why invalid or out of memory; empty when ok
  Limit limit = Limit::None;
  std::int64_t iterations_per_epoch = 0;
  double epoch_compute_s = 0;
  /// The part of epoch_compute_s spent waiting for the slowest GPU of each step (paradise
  /// variant, docs/gpu-profiles.md §variability)
  double epoch_slowest_gpu_wait_s = 0;
  double epoch_communication_s = 0;
  double epoch_overlapped_s = 0;  ///< communication hidden behind compute (paradise variant)
  /// The GPUs' wait for the input pipeline per epoch: what it needs beyond the step it
  /// overlaps (prefetching), 0 where it keeps up (paradise variant)
  double epoch_input_s = 0;
  /// An evaluation pass per epoch, when asked (Training::eval_samples): forward compute and
  /// half the per-layer exchanges at the training batch, or the input pipeline if slower
  double epoch_eval_s = 0;
  /// The framework's time per step (implementation::Profile::step_overhead_s) times the
  /// iterations; 0 where compute is a measured time per sample of whole steps (paradise)
  double epoch_step_overhead_s = 0;
  /// compute + communication - overlapped + step overhead + input wait + evaluation
  double epoch_time_s = 0;
  double iteration_time_s = 0;     ///< one iteration of the whole batch, exposed communication in
  double iteration_compute_s = 0;  ///< its compute (the epoch's mean is lower: a partial batch)
  double memory_per_gpu_bytes = 0;
  int split_layer = -1;  ///< spatial strategies: the last layer split (into the model's layers)
  std::array<std::int64_t, 3> split_parts{1, 1, 1};  ///< and its parts along W, H, D
  /// Spatial strategies: the dimensions split (Config::spatial_split, or Auto's choice).
  SpatialSplit spatial_split = SpatialSplit::W;
  /// The group size (hybrids' p2, data+pipeline's stages) and the pipelines' micro-batches
  /// used: Config's value, its default or auto's choice; 0 for a strategy without them.
  std::int64_t p2 = 0, segments = 0;
  std::vector<CommPart> communication;
  std::vector<MemPart> memory;
};

}  // namespace paradise::strategy
