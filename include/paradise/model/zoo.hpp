// The built-in model zoo: CNNs by name, as layer graphs that re-shape to any input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "paradise/model/graph.hpp"
#include "paradise/model/shape.hpp"

namespace paradise::model {

struct ZooEntry {
  std::string name;
  Shape default_input;  ///< the resolution the model is usually trained at
  std::string source;   ///< where the architecture comes from
};

/// Every built-in model, in the order `paradise models` prints them.
const std::vector<ZooEntry>& zoo();
/// The entry of that name; throws InputError listing the known names.
const ZooEntry& zoo_entry(std::string_view name);
/// Builds the layer graph of a zoo model; throws InputError for unknown names.
Graph build_zoo_model(std::string_view name);

}  // namespace paradise::model
