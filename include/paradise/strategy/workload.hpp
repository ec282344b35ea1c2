// Everything about a configuration that does not change with strategy, GPUs or batch:
// the model's layer statistics, per-layer compute time per sample, the layers a strategy
// may parallelise, the dataset size and the system. Built once and reused.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "paradise/cost/overlap.hpp"
#include "paradise/input/layer_times.hpp"
#include "paradise/input/workload.hpp"
#include "paradise/model/stats.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/system/system.hpp"

namespace paradise::strategy {

/// A spatial split that stops early: its last split layer and the smallest extent per
/// spatial dimension of the parallel layers up to it.
struct SpatialPrefix {
  int split = -1;
  std::array<std::int64_t, 3> min_extent{0, 0, 0};
  bool operator==(const SpatialPrefix&) const = default;
};

struct Workload {
  model::ModelStats model;
  std::vector<double> layer_time_s;  ///< forward + backward (+ update) seconds per sample
  std::string time_source;           ///< where layer_time_s comes from, for people
  std::string measured_precision;    ///< a layer-times file's precision column; "": none
  bool measured_time = false;        ///< layer_time_s is a measurement (else FLOPs at peak)
  /// layer_time_s spreads a measured time per sample of whole training steps, which holds
  /// the framework's time per step (implementation::Profile::step_overhead_s) already.
  bool measured_whole_step = false;
  std::vector<bool> active;          ///< the layers the strategy parallelises (.lc file)
  std::int64_t dataset_samples = 0;  ///< D
  /// The model's parameter tensors and elements: what an optimizer step launches kernels over
  /// (kernels.hpp), counted once here.
  double parameter_tensors = 0, parameter_elements = 0;
  model::SampleFormat sample_format = model::SampleFormat::Raw;  ///< the dataset's storage
  double sample_stored_bytes = 0;  ///< one sample on storage (0: not known)
  system::System system;
  /// With the default layer config only (every convolution parallel): the shorter splits a
  /// spatial strategy falls back to when the later, narrower layers cannot be split as many
  /// ways, longest first (spatial_prefixes()). Empty with a layer config: it is followed.
  std::vector<SpatialPrefix> spatial_prefixes;
};

/// The index of LayerSums' per-element-size arrays: [0] 2 bytes (mixed), [1] 4 bytes.
inline std::size_t element_size_index(double element_bytes) {
  return element_bytes == 2 ? 0 : 1;
}

/// Sums over the layers that every prediction of a workload needs; computed once.
struct LayerSums {
  double x = 0, y = 0;                ///< sum |x_l|, |y_l| per sample over the non-in-place layers
  double x_active = 0, y_active = 0;  ///< the same over the parallelised layers
  double w = 0, w_active = 0;         ///< sum |w_l|
  double t = 0, t_active = 0;         ///< seconds per sample
  // for the paradise variant's memory and overlap (docs/cost-model.md §memory, §overlap)
  double saved = 0, saved_fixed_bytes = 0;  ///< saved-for-backward elements, fixed bytes
  double largest_pair = 0;  ///< the largest |x_l| + |y_l| (ParaDL's chains; kept gradients)
  double outputs = 0;       ///< sum |y_l| over the non-in-place layers (all gradients kept)
  /// The largest |y_l| of an in-place layer (activation, norm): with all gradients kept, the
  /// one transient gradient beside them as its backward runs (the total taken at least
  /// largest_pair: the model's input can be in that pair and in no output).
  double largest_in_place = 0;
  /// Activation gradients as PyTorch's autograd frees them (docs/cost-model.md §memory;
  /// model/autograd_liveness.cpp): per sample, the bytes alive at the backward pass's peak
  /// beyond the saved activations, max over layers k of e G_k - (e R_>k + F_>k) with G_k
  /// the gradient elements alive in k's backward and R, F the saved elements and fixed
  /// bytes released by the layers after k. [0]: 2-byte elements (mixed), [1]: 4-byte.
  std::array<double, 2> gradient_peak_bytes{0, 0};
  double backward_share = 2.0 / 3.0;  ///< backward FLOPs / all FLOPs
  /// Activation recomputation (Chen et al. 2016, docs/cost-model.md §recomputation): the layers cut
  /// into contiguous segments balanced by saved elements (Chen's greedy plan, its budget searched
  /// around round(sqrt L) segments, the lowest step peak kept per element size), each cut at
  /// an articulation point where one comes (recompute.cpp); kept are the tensors crossing
  /// the cuts (skips too) and, during the backward pass, one segment's recomputed
  /// activations. Each [0]: the plan for 2-byte elements (mixed), [1]: for 4-byte.
  std::array<double, 2> recompute_saved{0, 0}, recompute_saved_fixed_bytes{0, 0};  ///< per sample
  /// The forward FLOPs of the layers before the last segment over all forward FLOPs: what
  /// the backward pass runs again (the last segment's activations are kept as it runs).
  std::array<double, 2> recompute_forward_share{0, 0};
  /// With recomputation, the activation gradients at the backward pass's peak beyond the
  /// checkpoints and the largest segment, segment by segment (recompute.cpp), as
  /// gradient_peak_bytes.
  std::array<double, 2> recompute_gradient_peak_bytes{0, 0};
  /// The plan's step peaks lower than the plain step's (else, by default, nothing is
  /// recomputed: Policies::recompute_only_if_lower).
  std::array<bool, 2> recompute_lowers_peak{false, false};
  /// Per layer with weights, in backward order (Barrachina et al.'s per-layer overlap,
  /// docs/cost-model.md §overlap): from the layers' times per sample, each split forward : backward
  /// by its FLOPs.
  std::vector<cost::GradientReady> gradient_ready;
};
LayerSums sum_layers(const Workload& w);
/// Per sample, the activation gradients at the peak of the backward pass through layers
/// [begin, end) beyond their saved activations, each released after its layer
/// (LayerStats::released_elements, saved_fixed_bytes): max over k of e G_k - (e R + F) of
/// the layers after k, at `element_bytes` e (docs/cost-model.md §memory). At least 0.
double gradient_peak_bytes(const model::ModelStats& m, std::size_t begin, std::size_t end,
                           double element_bytes);
/// Whether a Config recomputes on workload `w`: recomputation asked for, and its plan
/// lowers the step's peak or Policies::recompute_only_if_lower is off (the paradise variant).
bool recomputes(const Config& c, const LayerSums& s);
/// The recomputation plan of LayerSums::recompute_saved for `element_bytes` (2: mixed, 4):
/// the first layer of each segment after the first, in layer order (the cuts: the tensors
/// crossing them are the checkpoints).
std::vector<std::size_t> recompute_cuts(const model::ModelStats& m, double element_bytes);
/// The bytes a workload holds (its tables, names and vectors): what a sweep keeps per value
/// of the axes before strategy.
std::size_t footprint_bytes(const Workload& w);

/// Per spatial dimension, the smallest input or output extent over the parallel layers up
/// to `split` (0 where none): a spatial split must not cut a dimension into more parts.
std::array<std::int64_t, 3> parallel_min_extent(const Workload& w, int split,
                                                bool every_layer = false);
/// The nested prefixes of the default layer config at which the smallest extent grows, each
/// the longest with its extents: spatial parallelism applies "to the first layers only,
/// then an Allgather follows" (TR §V-A; docs/cost-model.md §paradl-per-epoch; ParaDL's CosmoFlow
/// .lc file splits its first two convolutions).
std::vector<SpatialPrefix> spatial_prefixes(const Workload& w);
/// Whether layer i reads the model's input (the first layer after the input placeholder).
inline bool reads_the_data(const model::ModelStats& m, std::size_t i) {
  return i == 0 || (i == 1 && m.layers[0].op == model::Op::Input);
}
/// ParaDL sums activations over layers that are not in place (summary_network2, docs/cost-model.md
/// §paradl-compute).
bool counts_for_memory(const model::LayerStats& l);
/// The fixed bytes autograd frees once layer l's backward has run: its max-pool indices,
/// dropout masks and Dice's one-hot target; not a loss's labels (cross-entropy's int64
/// targets, MSE's float ones), which the training loop holds through the step (as
/// analysis/reference/torch_counts.py's step does: U-Net's 8 B per voxel).
double released_fixed_bytes(const model::LayerStats& l);

/// ParaDL's empirical parametrisation (docs/cost-model.md §paradl-compute): `time_per_sample_s`
/// spread over the layers in proportion to estimate_layer_flop = forward + backward FLOPs.
std::vector<double> spread_by_flops(const model::ModelStats& m, double time_per_sample_s);

/// ParaDL's default when no .lc file is given: convolutions are parallelised.
std::vector<bool> default_active_layers(const model::ModelStats& m);

}  // namespace paradise::strategy

namespace paradise::strategy {

// The input module loads a workload's files; these names are its own, kept here for the
// cost model's callers.
using input::LayerTime;
using input::own_input_dataset;
using input::read_layer_times;
using input::WorkloadSpec;

/// Parametrises compute from what the input module loaded: measured per-layer times (each
/// layer's forward + backward per sample, at the largest profiled batch; layers the file
/// lacks at 0), or a measured time per sample (the .net file's or the one given) spread by
/// FLOPs, else the FLOPs at the GPU's fp32 peak (said so in time_source); the .lc file's
/// parallel layers, else every convolution and the spatial strategies' shorter splits.
Workload build_workload(input::LoadedWorkload loaded);

/// build_workload(input::load_workload(spec)). Throws InputError for bad names or files,
/// and for a layer-times row whose layer the model does not have.
Workload make_workload(const WorkloadSpec& spec);

/// Empty, or why `w`'s measured layer times (taken in another precision) cannot time a run
/// in `p` (they were used silently: mixed-precision times for an fp32 prediction).
std::string precision_mismatch(const Workload& w, Precision p);

/// Empty, or why the implementation of `c` cannot run on system `s`: it stages exchanges
/// through the host or pages managed memory, and the system gives no host link.
std::string host_link_missing(const Config& c, const system::System& s);

/// The precision a run takes when none is given (paradise variant): PyTorch's default, fp32
/// storage with convolutions in TF32 where the GPU has TF32 units (cuDNN's allow_tf32 is on
/// by default since PyTorch 1.7), else fp32; with measured layer times, the precision they
/// were measured in. Dense layers then run at the TF32 rate too, as in NVIDIA's containers.
Precision default_precision(const Workload& w);

}  // namespace paradise::strategy
