// The split of a spatial strategy (its last split layer and its parts along W, H, D), as
// predict and recommend report it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "paradise/core/json_writer.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::app {

/// "split_layer": the name of `layer` in w's model, and "split_parts": its parts along each
/// spatial dimension of the input (W first); both null when layer is -1 (no spatial split).
inline void write_split_layer(JsonWriter& j, const strategy::Workload& w, int layer,
                              const std::array<std::int64_t, 3>& parts) {
  j.key("split_layer");
  if (layer < 0) {
    j.null();
    j.key("split_parts").null();
    return;
  }
  j.value(w.model.layers[static_cast<std::size_t>(layer)].name);
  j.key("split_parts").begin_array();
  for (int u = 0; u < std::max(w.model.input.rank, 1); ++u)
    j.value(parts[static_cast<std::size_t>(u)]);
  j.end_array();
}

/// "4 parts along W", "2 x 2 parts along W x H": the dimensions cut in two or more.
inline std::string split_parts_text(const std::array<std::int64_t, 3>& parts, int rank) {
  static constexpr std::array<const char*, 3> names{"W", "H", "D"};
  std::string counts, dims;
  for (std::size_t u = 0; u < static_cast<std::size_t>(std::max(rank, 1)); ++u) {
    if (parts[u] < 2) continue;
    counts += (counts.empty() ? "" : " x ") + std::to_string(parts[u]);
    dims += (dims.empty() ? "" : " x ") + std::string(names[u]);
  }
  return counts.empty() ? "1 part" : counts + " parts along " + dims;
}

}  // namespace paradise::app
