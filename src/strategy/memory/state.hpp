// Private to the memory account: the model state's bytes per parameter (state.cpp).
#pragma once

#include <cstdint>

#include "paradise/strategy/config.hpp"

namespace paradise::strategy::extended {

/// Bytes per parameter of each part of the model state (docs/cost-model.md §model-state): weights
/// and gradients at the training precision, optimizer state (Adam 2 moments, momentum 1, fp32) plus
/// mixed precision's fp32 master copy, each divided over the replicas by its ZeRO stage.
struct StateBytes {
  double weights, gradients, optimizer, bucket;  // bucket: DDP's gradient copy (replicas only)
};
StateBytes state_bytes_per_param(const Config& c, std::int64_t data_parallel);

}  // namespace paradise::strategy::extended
