// The inputs of one prediction besides model and system: the point (strategy, GPUs, batch),
// the training setup, the cost model (variant) and its policies.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/cost/collectives.hpp"
#include "paradise/implementation/profile.hpp"
#include "paradise/strategy/paradl_version.hpp"

namespace paradise::strategy {

enum class Kind : std::uint8_t {
  Serial,
  Data,
  Spatial,
  Filter,
  Channel,
  Pipeline,
  DataFilter,
  DataSpatial,
  DataPipeline,  ///< HyPar-Flow: pipeline partitions x replicas (paradise variant)
  Daso,          ///< DASO: node-local data parallelism, periodic global sync (paradise)
};

/// "serial", "data", "spatial", "filter", "channel", "pipeline", "data+filter", "data+spatial",
/// "data+pipeline", "daso".
std::string_view kind_name(Kind k);
/// Whether the strategy trains another algorithm than synchronous SGD (DASO: stale global
/// averages between synchronisations, Coquelin et al. 2021): its epochs are not data
/// parallelism's and it may need more of them to reach the same accuracy.
inline bool changes_training_algorithm(Kind k) {
  return k == Kind::Daso;
}
std::optional<Kind> kind_from_name(std::string_view name);
const std::vector<Kind>& all_kinds();
/// "serial, data, ..., daso": every strategy's name, for messages.
std::string kind_list();
/// Whether the strategy splits its GPUs into groups of p2 (data+filter, data+spatial,
/// data+pipeline): the ones Config::p2 applies to.
/// (Inline, as the next two: asked for every point of a sweep.)
inline bool has_groups(Kind k) {
  return k == Kind::DataFilter || k == Kind::DataSpatial || k == Kind::DataPipeline;
}
/// Whether the strategy runs micro-batches through stages (pipeline, data+pipeline): the
/// ones Config::segments applies to.
inline bool has_micro_batches(Kind k) {
  return k == Kind::Pipeline || k == Kind::DataPipeline;
}
/// Whether the strategy splits samples spatially (spatial, data+spatial): the ones
/// Config::spatial_split applies to.
inline bool splits_samples(Kind k) {
  return k == Kind::Spatial || k == Kind::DataSpatial;
}

enum class Variant : std::uint8_t {
  Paradl,   ///< ParaDL's formulas and parametrisation as published (issue 3)
  Paradise  ///< the extended model (roofline compute, algorithm choice, overlap, full memory)
};
std::string_view variant_name(Variant v);
std::optional<Variant> variant_from_name(std::string_view name);
/// Whether the variant models the strategy (data+pipeline and daso: paradise only).
bool models(Variant v, Kind k);

/// The spatial dimensions a spatial split factors its P over: the width only (ParaDL's), H
/// and W, or every one (p = pw x ph [x pd]); Auto: per configuration the best of them, the
/// feasible one with the shortest epoch (predict_into; docs/cost-model.md §spatial-split).
enum class SpatialSplit : std::uint8_t { W, HW, All, Auto };
std::string_view spatial_split_name(SpatialSplit s);
std::optional<SpatialSplit> spatial_split_from_name(std::string_view name);
/// How many of a rank-`rank` sample's spatial dimensions the split factors P over (W first;
/// Auto is resolved before any split is planned).
int spatial_split_dims(SpatialSplit s, int rank);

/// Config::p2 and Config::segments: searched per configuration (`auto`): every value that
/// can be (search_p2_values, search_segment_values) is predicted and the best kept, as for
/// SpatialSplit::Auto (predict_into; docs/cost-model.md §searched-shapes).
inline constexpr std::int64_t kSearched = -1;
/// Whether the point searches its group size / micro-batches: kSearched on a strategy that
/// has them (has_groups; pipeline and data+pipeline).
inline bool searches_p2(Kind k, std::int64_t p2) {
  return p2 == kSearched && has_groups(k);
}
inline bool searches_segments(Kind k, std::int64_t segments) {
  return segments == kSearched && has_micro_batches(k);
}
/// A p2 or segments value as text: "auto" for kSearched, else the number.
std::string count_text(std::int64_t v);
/// "auto" or a whole number >= 1; nullopt for anything else.
std::optional<std::int64_t> count_from_text(std::string_view text);

/// Arithmetic of the training run: fp32; tf32 (fp32 storage, tensor-core GEMMs); mixed
/// (fp16/bf16 activations, weights and gradients, fp32 master weights; docs/cost-model.md
/// §model-state).
enum class Precision : std::uint8_t { Fp32, Tf32, Mixed };
std::string_view precision_name(Precision p);
std::optional<Precision> precision_from_name(std::string_view name);

enum class Optimizer : std::uint8_t { Sgd, Momentum, Adam };
std::string_view optimizer_name(Optimizer o);
std::optional<Optimizer> optimizer_from_name(std::string_view name);

/// The `paradise` variant's policies (docs/cost-model.md §paradise-variant). Each one can be
/// switched off to get ParaDL's behaviour back for that part alone.
struct Policies {
  /// Compute: per-layer roofline, max(FLOPs / (peak x efficiency), bytes / memory
  /// bandwidth), with the GEMM efficiency of the layer's kernel after partitioning,
  /// efficiency_max x g(M) g(N) g(K), g(x) = x / (x + gemm_half_dim) over the implicit
  /// GEMM's dimensions (samples x positions, filters, channels x kernel), scaled to the
  /// measured time per layer when there is one. Off: ParaDL's t_l / p. The curve's
  /// constants are the system's (system::Gpu; fitted by `paradise calibrate --profile`).
  bool roofline_compute = true;
  /// Gradient allreduce: the fastest of ring, double binary tree and (across nodes) the
  /// two-level hierarchical form, as NCCL's tuner picks (docs/cost-model.md §nccl). Off: Config's
  /// algorithm.
  bool choose_algorithm = true;
  /// Gradient allreduce in buckets overlapped with the backward pass (docs/cost-model.md §overlap,
  /// DDP's 25 MB buckets). Off: blocking, after the backward pass (ParaDL).
  bool overlap_gradients = true;
  double bucket_bytes = 25e6;
  /// Hybrids' gradient exchange across groups: off, every GPU of a group allreduces its own
  /// shard with its peers (concurrent flows share the node's adapters); on, reduce to a
  /// leader, allreduce among leaders, broadcast (what ParaDL's hybrids measured, docs/cost-model.md
  /// §two-level-allreduce b).
  bool leader_reduce = false;
  /// Filter/channel partial sums (filter: dL/dx backward, channel: y forward) by a ring
  /// reduce-scatter, as the neighbouring layer needs only its own partition (TR §III
  /// footnote). Off: the allreduce NCCL would pick (what ParaDL's implementation did).
  bool reduce_scatter_partial_sums = true;
  /// Memory by component (docs/cost-model.md §memory): saved-for-backward activations, optimizer
  /// state, workspace, communication buffers, runtime context. Off: ParaDL's 2 delta(...) only.
  bool full_memory = true;
  /// With Training::recompute_activations, recompute only where the plan's step peaks lower than
  /// the plain step's (LayerSums::recompute_lowers_peak); elsewhere (CosmoFlow, whose step peaks in
  /// its first convolution's backward) it would pay forward FLOPs for no memory. Off: the plan runs
  /// wherever asked, as torch.utils.checkpoint applied to it would.
  bool recompute_only_if_lower = true;
  /// PyTorch's autograd frees each dL/dy once used (model/autograd_liveness.cpp);
  /// off: TensorFlow's tape keeps every layer's activation gradient to the end (HyPar-Flow).
  bool free_activation_gradients = true;
  /// Spatial and data+spatial: every layer up to the split layer runs on its spatial
  /// partition (pools, activations, normalisation too: nothing gathers before the split
  /// layer's output; TR Table VI customises Conv, Pool and FC). Off: only the layers marked
  /// parallel are divided, the rest computed and kept whole (ParaDL's .lc rule, docs/cost-model.md
  /// §paradl-compute).
  bool split_whole_prefix = true;
  /// Spatial and data+spatial: each split convolution or pool whose window reaches beyond its
  /// tile (model::window_halos) keeps its input tile with the halo rows it received, saved
  /// for its backward, and, where that computes dL/dx from a tile of dL/dy, receives dL/dy's
  /// halo into a padded buffer (docs/cost-model.md §spatial-halo: halos exchanged before FW and
  /// BW_data, BW_weight reusing x's). Off: the tiles alone (the model at the tile).
  bool spatial_halo_memory = true;
  /// A synchronous step ends with its slowest GPU: compute x (1 + sigma E[max of p normals]),
  /// sigma from the system's GPU variability (docs/gpu-profiles.md §variability). Off: GPUs
  /// alike (ParaDL).
  bool wait_for_slowest_gpu = true;
  double workspace_bytes = 256.0 * (1 << 20);  ///< convolution workspace (cuDNN, per GPU)
  double context_bytes = 400e6;                ///< CUDA context, framework (cost-model.md §memory)
  double comm_buffer_bytes = 32.0 * (1 << 20);  ///< NCCL: channels x 2 x 4 MiB
  /// Pipeline schedule: 1F1B (PipeDream-Flush: at most p micro-batches in flight) or, off,
  /// GPipe (all S micro-batches' activations kept; docs/cost-model.md §pipeline).
  bool one_f_one_b = true;
  /// Pipeline: stage-boundary transfers overlap the next micro-batch's compute (only the
  /// fill and drain wait). Off: every transfer blocks (ParaDL).
  bool overlap_pipeline_transfers = true;
};

/// DASO's schedule (Coquelin et al. 2022; docs/cost-model.md §daso).
struct DasoSchedule {
  /// The steady state (its defaults after warm-up): global sync every global_skip batches,
  /// node-local every local_skip, the global result merged batches_to_wait batches later.
  double global_skip = 4, local_skip = 1, batches_to_wait = 1;
  /// The warm-up and cool-down (4 + 4 epochs by default) synchronise every batch and block;
  /// an epoch's time is the mean over a run of run_epochs epochs (90: the ImageNet ResNet-50
  /// schedule). blocking_epochs = 0: the steady state alone.
  double run_epochs = 90, blocking_epochs = 8;
};

/// The point of the design space: strategy, GPUs, batch and the strategy's shape.
struct Point {
  Kind kind = Kind::Data;
  std::int64_t gpus = 1;   ///< p
  std::int64_t batch = 1;  ///< global mini-batch B
  /// hybrids: GPUs per group, data+pipeline: stages (0: GPUs per node; kSearched: auto)
  std::int64_t p2 = 0;
  std::int64_t segments = 0;  ///< pipeline micro-batches S (0: = stages; kSearched: auto)
  /// Spatial and data+spatial's groups: the dimensions P is factored over.
  SpatialSplit spatial_split = SpatialSplit::W;
};

/// How the network is trained: arithmetic, optimizer, sharding, recomputation, and the
/// gradient allreduce's algorithm where none is chosen.
struct Training {
  int activation_bytes = 4;               ///< delta (fp32)
  Precision precision = Precision::Fp32;  ///< paradise variant only (paradl: fp32)
  /// Precision was not given: it is the workload's default_precision (set where the workload
  /// is known; paradise variant only), and outputs say so.
  bool precision_by_default = false;
  /// An evaluation pass per epoch over this many samples (paradise variant; 0: none): the
  /// forward pass alone at the training batch, Builder::finish.
  std::int64_t eval_samples = 0;
  Optimizer optimizer = Optimizer::Momentum;  ///< paradise variant only
  int zero_stage = 0;  ///< 0-3: shard optimizer state / gradients / weights (paradise only)
  /// Activation recomputation (gradient checkpointing; Chen et al. 2016): cut the layers
  /// into segments (Chen's greedy plan, the budget with the lowest peak around round(sqrt L)
  /// segments), keep the tensors crossing the cuts and recompute one
  /// segment at a time in the backward pass, paying the forward pass before the last
  /// segment again (a pipeline stage keeps its input per micro-batch in flight, recomputes
  /// one and pays its whole forward pass again). Off by default, as in the frameworks.
  bool recompute_activations = false;
  /// Gradient allreduce algorithm (data, spatial and the hybrids' exchanges); ParaDL: ring.
  cost::AllreduceAlgorithm gradient_allreduce = cost::AllreduceAlgorithm::Ring;
  /// How the implementation moves data and runs split layers (paradise variant; the paradl
  /// variant is ParaDL's formulas as published): PyTorch + NCCL by default.
  implementation::Profile implementation = implementation::kPytorchNccl;
  /// Its name, a view of storage that outlives the Config (a built-in's, the command's, the
  /// sweep's): outputs name the profile that made them.
  std::string_view implementation_name = implementation::kDefaultName;
};

/// One prediction's inputs besides the workload: the point, the training setup (both as
/// bases, so that `c.gpus` and `c.precision` read as before), the cost model and its
/// settings. The paradise variant's compute memo is passed to predict, not held here.
struct Config : Point, Training {
  Variant variant = Variant::Paradl;
  Policies policies;      ///< paradise variant only
  DasoSchedule daso;      ///< paradise variant's daso only
  ParadlSettings paradl;  ///< paradl variant only
};

/// The training run's settings in words, for the commands' headers: "mixed precision, adam
/// optimizer, ZeRO stage 2, activation recomputation"; under the paradl variant "fp32
/// (ParaDL: weights, gradients and activations only)".
std::string training_summary(const Config& c);
/// training_summary's four parts under the paradise variant: precision, optimizer, ZeRO
/// stage, recomputation.
std::array<std::string, 4> training_parts(const Config& c);
/// "; an evaluation pass over 50,000 samples per epoch" when one is asked (paradise), else "".
std::string evaluation_text(const Config& c);

}  // namespace paradise::strategy
