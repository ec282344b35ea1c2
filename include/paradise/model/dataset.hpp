// Datasets: a sample shape and the number of samples in one epoch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/model/shape.hpp"

namespace paradise::model {

struct Dataset {
  std::string name;
  std::int64_t samples = 0;  ///< samples per epoch (ParaDL's D)
  Shape sample;              ///< channels x [depth x] height x width
  std::string source;
};

/// The built-in datasets, in the order `paradise datasets` would print them.
const std::vector<Dataset>& builtin_datasets();

/// A built-in name ("imagenet") or a user-defined "NAME:SAMPLES:CxHxW" /
/// "NAME:SAMPLES:CxDxHxW"; throws InputError naming the value.
Dataset find_dataset(std::string_view spec, const Origin& where = {"--dataset", 0});

}  // namespace paradise::model
