// The extended model's wait for the slowest GPU (docs/gpu-profiles.md §variability): GPUs of
// one SKU run the same step at different speeds, and a synchronous step ends with its slowest.
#pragma once

#include <cstdint>

#include "paradise/system/system.hpp"

namespace paradise::strategy {

/// The expected largest of n independent standard normal variables, by Blom's (1958)
/// plotting position Phi^-1((n - 0.375) / (n + 0.25)); 0 for n <= 1.
double expected_maximum_of_normals(std::int64_t n);

/// The factor on a step's compute when `gpus` GPUs wait for each other: 1 + sigma E[max],
/// with sigma the GPUs' coefficient of variation of speed (Gpu::speed_cv).
double slowest_gpu_factor(const system::Gpu& gpu, std::int64_t gpus);

}  // namespace paradise::strategy
