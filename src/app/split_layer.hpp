// The last layer of a spatial strategy's split, as predict and recommend report it.
#pragma once

#include <cstddef>

#include "paradise/core/json_writer.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::app {

/// "split_layer": the name of `layer` in w's model, or null (-1: no spatial split).
inline void write_split_layer(JsonWriter& j, const strategy::Workload& w, int layer) {
  j.key("split_layer");
  if (layer >= 0) {
    j.value(w.model.layers[static_cast<std::size_t>(layer)].name);
  } else {
    j.null();
  }
}

}  // namespace paradise::app
