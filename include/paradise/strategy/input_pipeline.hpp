// The extended model's input pipeline (docs/gpu-profiles.md §input): the seconds a node needs
// to deliver one iteration's samples, and a loading rank its share (docs/implementations.md
// §loader), which prefetching overlaps with the step.
#pragma once

#include <cstdint>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

/// Seconds to read and prepare one iteration's `batch` samples on `gpus` GPUs: the slowest of
/// the node's CPU decode (JPEG) or raw read-and-augment, its storage read, and the file
/// system's aggregate rate; 0 where the system bounds none of them.
double input_iteration_s(const Workload& w, std::int64_t gpus, std::int64_t batch);

/// Seconds one loading rank of the implementation (Profile::loader_samples_per_s) takes for
/// its share of an iteration: a data-parallel GPU's samples, or a group's where the GPUs of a
/// group share samples (all of filter, channel, spatial and pipeline's GPUs; a hybrid's
/// group); 0 where the profile sets no rate.
double loader_iteration_s(const Workload& w, const Config& c);

}  // namespace paradise::strategy
