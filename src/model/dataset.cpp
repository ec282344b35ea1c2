#include "paradise/model/dataset.hpp"

#include <algorithm>
#include <cmath>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"

namespace paradise::model {

namespace {

// ILSVRC-2012: 1,281,167 training and 50,000 validation JPEGs in 140 GB (Dell EMC Ready
// Solutions for AI reference guide, §3.1): 105 kB a file
constexpr double kImagenetJpegBytes = 140e9 / (1281167 + 50000);

Dataset jpeg(Dataset d) {
  d.format = SampleFormat::Jpeg;
  d.jpeg_bytes = kImagenetJpegBytes;
  return d;
}
// CosmoFlow's universes are particle counts stored as int16 (MLPerf HPC's reference data)
Dataset int16(Dataset d) {
  d.element_bytes = 2;
  return d;
}

}  // namespace

double Dataset::stored_bytes() const {
  return format == SampleFormat::Jpeg ? jpeg_bytes
                                      : static_cast<double>(sample.elements()) * element_bytes;
}

const std::vector<Dataset>& builtin_datasets() {
  static const std::vector<Dataset> sets = {
      jpeg({"imagenet", 1281167, Shape::image(3, 224, 224), "ILSVRC-2012 training set"}),
      jpeg({"imagenet-paradl", 1280000, Shape::image(3, 226, 226),
            "ImageNet as ParaDL's .net files state it (1.28M samples, 3x226x226)"}),
      // CIFAR-10: uint8 pixels
      {"cifar10", 50000, Shape::image(3, 32, 32), "CIFAR-10 training set", {}, 0, 1},
      int16({"cosmoflow", 524288, Shape::volume(4, 128, 128, 128),
             "MLPerf HPC v1.0 CosmoFlow training split, 4x128^3"}),
      int16({"cosmoflow256", 1584, Shape::volume(4, 256, 256, 256),
             "ParaDL's synthetic 256^3 CosmoFlow (COSMOFLOW.net_256)"}),
      int16({"cosmoflow512", 1584, Shape::volume(4, 512, 512, 512),
             "CosmoFlow 512^3 as in ParaDL's COSMOFLOW.net (TR Table IV)"}),
      // stored as preprocessed fp32 arrays (the default raw storage)
      {"kits19", 168, Shape::volume(1, 128, 128, 128),
       "KiTS19 as MLPerf Training's 3D U-Net uses it: 168 training cases, one 128^3 patch "
       "each an epoch (mlcommons/training image_segmentation)"},
      {"brats-task01", 484, Shape::volume(4, 128, 128, 128),
       "Medical Segmentation Decathlon Task01 BrainTumour: 484 training volumes, one 128^3 patch "
       "each an epoch (NVIDIA DeepLearningExamples nnU-Net)"},
      {"isbi2012", 30, Shape::image(1, 572, 572),
       "ISBI 2012 EM segmentation: 30 training images, 572^2 mirrored tiles (Ronneberger et al. "
       "2015)"},
  };
  return sets;
}

Dataset find_dataset(std::string_view spec, const Origin& where) {
  for (const auto& d : builtin_datasets()) {
    if (d.name == spec) return d;
  }
  const auto parts = split(spec, ':');
  if (parts.size() != 3) {
    std::string known;
    for (const auto& d : builtin_datasets()) known += (known.empty() ? "" : ", ") + d.name;
    fail_input(where, "dataset", spec,
               "unknown dataset; built-in: " + known + ", or NAME:SAMPLES:CxHxW or CxDxHxW");
  }
  Dataset d;
  d.name = std::string(trim(parts[0]));
  if (d.name.empty()) fail_input(where, "dataset", spec, "the name before the first ':' is empty");
  d.samples = parse_int(parts[1], where, "dataset samples");
  if (d.samples < 1) fail_input(where, "dataset samples", parts[1], "must be at least 1");
  d.sample = Shape::parse(parts[2], where, "dataset shape");
  if (d.sample.rank < 1) fail_input(where, "dataset shape", parts[2], "needs spatial dimensions");
  d.source = "user-defined";
  // a built-in at another resolution (a sweep's resolution axis) keeps how it is stored
  for (const auto& b : builtin_datasets()) {
    if (b.name != d.name) continue;
    d.format = b.format;
    d.jpeg_bytes = b.jpeg_bytes;
    d.element_bytes = b.element_bytes;
  }
  return d;
}

std::string dataset_at_side(std::string_view spec, std::int64_t side, SamplesAtSide samples) {
  const Dataset d = find_dataset(spec);
  Shape shape = d.sample;
  double ratio = 1;  // the sample's spatial volume over the new one
  for (int i = 0; i < shape.rank; ++i) {
    auto& extent = shape.size[static_cast<std::size_t>(i)];
    ratio *= static_cast<double>(extent) / static_cast<double>(side);
    extent = side;
  }
  std::int64_t count = d.samples;
  if (samples == SamplesAtSide::SameVoxels)
    count = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::llround(static_cast<double>(d.samples) * ratio)));
  return d.name + ":" + std::to_string(count) + ":" + shape.str();
}

}  // namespace paradise::model
