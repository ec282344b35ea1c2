// How a training implementation moves data and runs split layers (docs/implementations.md):
// per kind of exchange its transport, software overhead per call and whether it overlaps
// computation; the compute efficiency of split layers; whether device memory may be
// oversubscribed. The extended cost model reads it (strategy::Training::implementation).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace paradise::implementation {

/// How an exchange's bytes travel: GPU to GPU (NCCL over NVLink, GPUDirect RDMA); staged
/// through the host (a device-to-host copy over the PCIe tree, MPI between host buffers, a
/// host-to-device copy); or CUDA-aware MPI on device pointers, GPU to GPU within a node
/// (CUDA IPC) and across nodes staged through host buffers chunk by chunk, the copies
/// pipelined with the network (Open MPI's openib BTL above its GPUDirect RDMA limit).
enum class Transport : std::uint8_t { GpuDirect, HostStaged, CudaAwareMpi };
/// "gpu-direct", "host-staged", "mpi-cuda-aware"
std::string_view transport_name(Transport t);
std::optional<Transport> transport_from_name(std::string_view name);

/// The kinds of exchange a profile describes, in the file's and the tables' order:
/// gradient (the data-parallel gradient exchange, a hybrid's across groups), layer (filter
/// and channel parallelism's per-layer allgathers and partial-sum reductions), halo (a
/// spatial split's boundary rows), gather (the allgather after a spatial split), pipeline
/// (stage-boundary sends).
enum class Exchange : std::uint8_t { Gradient, Layer, Halo, Gather, Pipeline };
inline constexpr std::size_t kExchanges = 5;
inline constexpr std::array<std::string_view, kExchanges> kExchangeNames{
    "gradient", "layer", "halo", "gather", "pipeline"};
std::optional<Exchange> exchange_from_name(std::string_view name);

/// One kind of exchange as the implementation runs it.
struct ExchangeRule {
  Transport transport = Transport::GpuDirect;
  /// Runs beside independent computation: gradient buckets during the backward pass,
  /// pipeline sends during the next micro-batch, halos during the tiles' interior, filter
  /// parallelism's dL/dx reduction during the weight-gradient GEMM. Never a gather.
  bool overlapped = false;
  double overhead_s = 0;  ///< software time per call beyond the link's latency (16-byte rule)
  bool operator==(const ExchangeRule&) const = default;
};

/// The numbers of a profile (fixed size: every prediction's configuration holds one).
struct Profile {
  std::array<ExchangeRule, kExchanges> exchanges{};
  /// A split layer's kernels reach this share of the roofline's time for their partition
  /// (the slicing, concatenation and extra launches around them), in (0, 1].
  double split_efficiency = 1;
  /// Staged copies run at this rate per PCIe switch (0: the system's host link), e.g.
  /// pageable rather than pinned host buffers.
  double staging_Bps = 0;
  /// The strategies (bit i: the i-th of kStrategyNames) that allocate from CUDA managed
  /// memory: device memory may be oversubscribed, a configuration beyond the GPU's memory
  /// runs, paging its excess out and in every iteration over the host link.
  std::uint16_t managed_memory = 0;
  /// One rank per group of GPUs that share samples (all of filter, channel and spatial's
  /// GPUs; a hybrid's group) loads each batch and broadcasts it through MPI on the host,
  /// each GPU then copying the batch in; else every GPU loads its own.
  bool input_broadcast = false;
  /// Samples per second one loading rank delivers to its training process (reading,
  /// decoding, augmenting, in the framework's loader: ChainerMN's 20-thread iterator in one
  /// Python process); 0: not bounding. Every data-parallel GPU loads its own share; the GPUs
  /// of a group that share samples wait for one rank's load of the whole group's batch
  /// (input_broadcast), or each loads all of it. Prefetched behind the step.
  double loader_samples_per_s = 0;
  /// The framework's host time per training step that the GPUs wait for: the training
  /// loop's Python, the loss's synchronisation, the next batch's hand-off. Added to every
  /// iteration whose compute is not a measured time per sample of whole steps (which holds
  /// it already).
  double step_overhead_s = 0;

  constexpr const ExchangeRule& rule(Exchange e) const {
    return exchanges[static_cast<std::size_t>(e)];
  }
  constexpr ExchangeRule& rule(Exchange e) { return exchanges[static_cast<std::size_t>(e)]; }
  bool operator==(const Profile&) const = default;
};

/// The built-in profiles' framework time per step (Profile::step_overhead_s), one per
/// framework: each fitted with the GPUs' kernel efficiencies to NVIDIA's published single-GPU
/// training throughputs of that framework, the intercept of step time against batch
/// (tools/fit-gpu-profiles, docs/gpu-profiles.md §step-overhead). Written as
/// step_overhead_us reads them.
inline constexpr double kPytorchStepOverhead_s = 14700 * 1e-6;
inline constexpr double kTensorflowStepOverhead_s = 6700 * 1e-6;
inline constexpr double kMxnetStepOverhead_s = 0 * 1e-6;

/// The default profile, PyTorch with NCCL: every exchange GPU-direct with no overhead beyond
/// the link's latency (NCCL's own start-up is the network levels' alpha); gradient buckets
/// overlap the backward pass (DDP) and pipeline sends the next micro-batch (PipeDream-Flush).
inline constexpr Profile kPytorchNccl = [] {
  Profile p;
  p.rule(Exchange::Gradient).overlapped = true;
  p.rule(Exchange::Pipeline).overlapped = true;
  p.step_overhead_s = kPytorchStepOverhead_s;
  return p;
}();

/// The strategies' names in strategy::Kind's order (checked against strategy::kind_name by
/// the unit tests): the managed_memory list's words.
inline constexpr std::array<std::string_view, 10> kStrategyNames{
    "serial",   "data",        "spatial",      "filter",        "channel",
    "pipeline", "data+filter", "data+spatial", "data+pipeline", "daso"};
/// Whether strategy number `kind` (strategy::Kind's value) allocates from managed memory.
constexpr bool managed(const Profile& p, std::size_t kind) {
  return (p.managed_memory >> kind & 1U) != 0;
}

/// The default's name: PyTorch with NCCL (kPytorchNccl).
inline constexpr std::string_view kDefaultName = "pytorch-nccl";

/// A named profile: a built-in or an implementation file.
struct Implementation {
  std::string name;
  std::string description;
  Profile profile;
};

}  // namespace paradise::implementation
