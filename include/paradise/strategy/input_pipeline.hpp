// The extended model's input pipeline (docs/gpu-profiles.md §input): the seconds a node needs
// to deliver one iteration's samples, which prefetching overlaps with the step.
#pragma once

#include <cstdint>

#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

/// Seconds to read and prepare one iteration's `batch` samples on `gpus` GPUs: the slowest of
/// the node's CPU decode (JPEG) or raw read-and-augment, its storage read, and the file
/// system's aggregate rate; 0 where the system bounds none of them.
double input_iteration_s(const Workload& w, std::int64_t gpus, std::int64_t batch);

}  // namespace paradise::strategy
