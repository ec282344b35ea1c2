// Fields that several commands' outputs share: the training settings, and the split of a
// spatial strategy (its last split layer and its parts along W, H, D).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "paradise/core/json_writer.hpp"
#include "paradise/model/convergence.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::report {

/// The training settings as JSON keys precision, optimizer, zero_stage and recompute (the
/// last three under the paradise variant only).
void write_training_json(JsonWriter& j, const strategy::Config& c);

/// "split_layer": the name of `layer` in w's model, and "split_parts": its parts along each
/// spatial dimension of the input (W first); both null when layer is -1 (no spatial split).
void write_split_layer(JsonWriter& j, const strategy::Workload& w, int layer,
                       const std::array<std::int64_t, 3>& parts);

/// "convergence": the epochs-to-target model (epochs_min, noise_batch, source), or null.
void write_convergence(JsonWriter& j, const std::optional<model::Convergence>& epochs);

/// "4 parts along W", "2 x 2 parts along W x H": the dimensions cut in two or more.
std::string split_parts_text(const std::array<std::int64_t, 3>& parts, int rank);
/// A group size used, in words: "8 GPUs per group" (data+pipeline: "8 stages per replica").
std::string group_size_text(strategy::Kind k, std::int64_t p2);

}  // namespace paradise::report
