// Loading a workload's inputs: the model (zoo name, *.model or ParaDL .net file), its
// dataset, the system (built-in name or *.system file), measured times (a time per sample or
// a layer-times CSV) and the layers a strategy parallelises (a ParaDL .lc file). Every file
// is read here; the cost model (strategy::make_workload) computes from what is loaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/model/dataset.hpp"
#include "paradise/model/stats.hpp"
#include "paradise/system/system.hpp"

namespace paradise::input {

/// How a user names a workload on the command line or in a sweep file.
struct WorkloadSpec {
  std::string model;             ///< zoo name, *.model file or ParaDL .net file
  std::string dataset;           ///< built-in or NAME:SAMPLES:SHAPE; empty: the .net file's
  std::string system;            ///< built-in name or *.system file
  std::string layer_config;      ///< ParaDL .lc file; empty: convolutions are parallel
  double time_per_sample_s = 0;  ///< measured FW+BW seconds per sample; 0: from the model
  /// Per-layer measured times (CSV: layer, forward_s, backward_s per sample, batch,
  /// precision, peak_memory_bytes; analysis/profile_layers.py); empty: none.
  std::string layer_times = {};
};

/// What a workload's files say, checked against each other.
struct LoadedWorkload {
  model::ModelStats model;  ///< at the dataset's sample shape
  std::int64_t dataset_samples = 0;
  model::SampleFormat sample_format = model::SampleFormat::Raw;  ///< how the dataset is stored
  double sample_stored_bytes = 0;  ///< one sample on storage; 0: not known (a .net file's)
  system::System system;
  /// A layer-times file's forward + backward seconds per sample per layer, at its largest
  /// batch (layers the file lacks at 0); empty without one.
  std::vector<double> measured_layer_time_s;
  double time_per_sample_s = 0;    ///< a measured time per sample (given, the .net file's); 0
  std::string time_source;         ///< where the measured times come from; "": none measured
  std::string measured_precision;  ///< the layer-times file's precision column; "": none
  std::vector<bool> active;        ///< the .lc file's parallel layers; empty: none given
};

/// Loads model, dataset and system, then the measured times: a layer-times file (each row's
/// layer one of the model's, every layer with a GEMM timed, no time beyond 100x the GPU's
/// peak), a time per sample given or the .net file's; then the .lc file. Throws InputError
/// for bad names or files.
LoadedWorkload load_workload(const WorkloadSpec& spec);

/// A one-sample dataset of the model's own input ("profile:1:SHAPE"), for checks where the
/// dataset does not matter (layer-times files); empty for ParaDL .net files, which carry one.
std::string own_input_dataset(const std::string& model);

}  // namespace paradise::input
