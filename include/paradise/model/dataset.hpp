// Datasets: a sample shape and the number of samples in one epoch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/model/shape.hpp"

namespace paradise::model {

/// How a sample is stored: decoded from a JPEG file (ImageNet), or read as raw elements.
enum class SampleFormat : std::uint8_t { Raw, Jpeg };

struct Dataset {
  std::string name;
  std::int64_t samples = 0;  ///< samples per epoch (ParaDL's D)
  Shape sample;              ///< channels x [depth x] height x width
  std::string source;
  SampleFormat format = SampleFormat::Raw;
  double jpeg_bytes = 0;     ///< JPEG: the mean file size (at its own resolution)
  double element_bytes = 4;  ///< raw: bytes per stored element (CosmoFlow's int16: 2)

  /// Bytes one sample takes on storage: the JPEG file, or its raw elements.
  double stored_bytes() const;
};

/// The built-in datasets, in the order `paradise datasets` would print them.
const std::vector<Dataset>& builtin_datasets();

/// A built-in name ("imagenet") or a user-defined "NAME:SAMPLES:CxHxW" /
/// "NAME:SAMPLES:CxDxHxW"; throws InputError naming the value.
Dataset find_dataset(std::string_view spec, const Origin& where = {"--dataset", 0});

/// How the samples per epoch follow a resolution: the dataset's count at every side, or the
/// same number of voxels (pixels) per epoch, as when one volume is cut into cubes of the side.
enum class SamplesAtSide : std::uint8_t { Fixed, SameVoxels };

/// The dataset `spec` (as find_dataset takes it) with every spatial extent of its samples
/// set to `side` (a square, or a cube for 3-D data), as "NAME:SAMPLES:SHAPE": a sweep's
/// resolution axis, predict's --resolution. SameVoxels: SAMPLES = the dataset's x its
/// sample's spatial volume / side^dimensions, rounded, at least 1.
std::string dataset_at_side(std::string_view spec, std::int64_t side,
                            SamplesAtSide samples = SamplesAtSide::Fixed);

}  // namespace paradise::model
