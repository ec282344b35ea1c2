// A machine: GPU, node and a hierarchy of network levels. Units are SI inside (bytes,
// seconds, FLOP/s); the file parser converts from the units in its key names.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace paradise::system {

/// Hockney parameters of the slowest link a communicator crosses.
struct Link {
  double alpha_s = 0;           ///< start-up latency per message
  double beta_s_per_byte = 0;   ///< 1 / bandwidth
  double gamma_s_per_byte = 0;  ///< reduction compute per byte (0: ignored, as in ParaDL)
};

/// The kernel classes with a GEMM efficiency of their own (a 3-D implicit GEMM is not a 2-D
/// one; cuDNN may run a 2-D 3x3 stride-1 convolution with Winograd's algorithm, Lavin and
/// Gray 2016): the first index of Gpu::class_efficiency_max, and the names in system-file keys.
enum class GemmClass : std::uint8_t { Conv2d, Conv3d, Dense, Conv3x3 };
inline constexpr std::array<std::string_view, 4> kGemmClassNames{"conv2d", "conv3d", "dense",
                                                                 "conv3x3"};
/// The most a class's e_max may be, in direct-convolution FLOPs: the peak (1), or for 3x3
/// convolutions 4, the multiplications Winograd's F(4x4, 3x3) saves (144 for a 4x4 tile of
/// outputs directly, 36 with it; Lavin and Gray 2016, Table 1).
inline constexpr double most_efficiency_max(GemmClass k) {
  return k == GemmClass::Conv3x3 ? 4.0 : 1.0;
}
/// The convolutions that cuDNN and PyTorch run with kernels of their own, not the dense
/// implicit GEMM: depthwise (one input channel per group) and other grouped ones (ResNeXt).
/// The first index of Gpu::grouped_attainment, and the names in system-file keys.
enum class GroupedConv : std::uint8_t { Depthwise, Grouped };
inline constexpr std::array<std::string_view, 2> kGroupedConvNames{"depthwise", "grouped"};
/// The precisions in strategy::Precision's order (fp32, tf32, mixed): the second index.
inline constexpr std::array<std::string_view, 3> kPrecisionKeyNames{"fp32", "tf32", "mixed"};

/// Phi^-1(0.75): the upper quartile of a standard normal, half its interquartile range.
inline constexpr double kNormalUpperQuartile = 0.6744897501960817;

struct Gpu {
  std::string name;
  double peak_fp32_flops = 0;
  double peak_tf32_flops = 0;  ///< 0 when the GPU has no TF32 (then fp32 is used)
  double peak_fp16_flops = 0;  ///< dense tensor-core fp16/bf16
  double memory_bytes = 0;     ///< HBM capacity (the vendor's "80 GB" is 80 GiB)
  /// Capacity the driver keeps before any process starts: capacity - totalGlobalMem
  /// (docs/measured-data.md, kernel-overheads.csv `capacity` rows).
  double reserved_bytes = 0;
  double memory_bandwidth_Bps = 0;
  /// The share of the peak bandwidth a streaming kernel reaches (STREAM triad / peak,
  /// gpu-benches; docs/measured-data.md): the memory roof of the extended model's roofline.
  double memory_bandwidth_efficiency = 1;
  /// The paradise variant's GEMM efficiency curve, e_max g(M) g(N) g(K), g(x) = x / (x + h)
  /// (src/strategy/roofline.cpp): defaults until `paradise calibrate --profile` fits them.
  double gemm_efficiency_max = 0.8;
  double gemm_half_dim = 32;
  /// e_max per kernel class and precision, [GemmClass][fp32, tf32, mixed], fitted to published
  /// single-GPU training throughput (docs/gpu-profiles.md); 0: gemm_efficiency_max (for
  /// conv3x3: conv2d's).
  std::array<std::array<double, 3>, 4> class_efficiency_max{};
  /// The share of its roofline (the larger of its compute and memory times) a grouped
  /// convolution's kernels reach, [GroupedConv][precision], fitted like class_efficiency_max
  /// (docs/gpu-profiles.md §grouped); 0: 1, the roofline itself.
  std::array<std::array<double, 3>, 2> grouped_attainment{};
  /// Host time per kernel of eager execution (framework dispatch and the launch): a kernel
  /// never takes less on the GPU's timeline (docs/gpu-profiles.md §fixed-costs).
  double kernel_launch_s = 0;
  /// How much GPUs of this SKU differ in speed on the same step, as Sinha et al. (SC'22) measure
  /// it: the whisker-to-whisker range of per-GPU step times, (Q3 + 1.5 IQR) - (Q1 - 1.5 IQR),
  /// over their median (docs/gpu-profiles.md §variability); 0: all GPUs alike.
  double variability_fraction = 0;

  /// The coefficient of variation of per-GPU step time that `variability_fraction` means for
  /// normally distributed times: the whiskers span 4 IQR = 8 Phi^-1(0.75) sigma.
  double speed_cv() const { return variability_fraction / (8 * kNormalUpperQuartile); }

  /// The e_max of a kernel class at a precision index (kPrecisionKeyNames' order).
  double efficiency_max(GemmClass k, std::size_t precision) const {
    const double e = class_efficiency_max[static_cast<std::size_t>(k)][precision];
    if (e > 0) return e;
    return k == GemmClass::Conv3x3 ? efficiency_max(GemmClass::Conv2d, precision)
                                   : gemm_efficiency_max;
  }
  /// The roofline share of a grouped convolution kind at a precision index.
  double attainment(GroupedConv k, std::size_t precision) const {
    const double a = grouped_attainment[static_cast<std::size_t>(k)][precision];
    return a > 0 ? a : 1;
  }
};

/// One level of the network: a communicator of at most `span_gpus` GPUs (placed
/// consecutively) stays within it. Levels are ordered by increasing span.
struct NetworkLevel {
  std::string name;
  std::int64_t span_gpus = 0;
  double bandwidth_Bps = 0;     ///< per-GPU bottleneck bandwidth across this level
  double latency_s = 0;         ///< alpha of the worst pair whose path reaches this level
  double oversubscription = 1;  ///< injection : uplink bandwidth ratio of this level
  /// Above the node: the bandwidth is what a flat communicator gets per GPU, all of a node's
  /// adapters together (measured by a collective across nodes, paradise calibrate), not one
  /// adapter's; the paradise variant then does not multiply it by the adapters.
  bool node_bandwidth = false;
};

/// A node's input pipeline (docs/gpu-profiles.md §input): the CPU cores that decode and
/// augment samples and the rates that bound it. A rate of 0 does not bound the pipeline;
/// without cores no CPU rate applies.
struct InputPipeline {
  std::int64_t cpu_cores_per_node = 0;
  double jpeg_samples_per_core_s = 0;  ///< JPEG decode + augmentation, per core
  double raw_Bps_per_core = 0;         ///< raw samples (3-D volumes) read and augmented, per core
  double node_read_Bps = 0;            ///< what one node reads from storage
  double filesystem_Bps = 0;           ///< the shared file system's aggregate read rate
};

/// The PCIe tree between a node's GPUs and its host: staged copies (host-staged exchanges,
/// managed-memory paging; docs/implementations.md) cross it. A bandwidth of 0: not known.
struct HostLink {
  double bandwidth_Bps = 0;          ///< one PCIe switch's uplink to the CPU, per direction
  std::int64_t gpus_per_switch = 1;  ///< GPUs behind that uplink, copying at once
  double latency_s = 0;              ///< start-up of one copy (cudaMemcpy)
};

struct System {
  std::string name;
  std::string description;
  Gpu gpu;
  std::int64_t gpus_per_node = 1;
  std::int64_t max_gpus = 1;
  std::vector<NetworkLevel> levels;
  /// The same hierarchy for transfers staged through the host (no GPUDirect); ParaDL
  /// uses it for halo exchanges (docs/cost-model.md §abci). Empty: same as `levels`.
  std::vector<NetworkLevel> host_staged_levels;
  double memory_margin_fraction = 0;  ///< device memory kept free (fragmentation)
  /// Network adapters a node's GPUs share on the levels above the node; a level's
  /// bandwidth is that of one adapter. 0: one per GPU (DGX). ABCI: 2 EDR HCAs for 4 GPUs.
  std::int64_t nics_per_node = 0;
  InputPipeline input;
  HostLink host;

  /// Device memory less the margin kept free: what a configuration's memory per GPU must
  /// not exceed (strategy::predict's out-of-memory test).
  double usable_memory_bytes() const {
    return (gpu.memory_bytes - gpu.reserved_bytes) * (1 - memory_margin_fraction);
  }
  /// The level whose span first covers p consecutive GPUs (ParaDL's worst-pair rule).
  const NetworkLevel& level_for(std::int64_t p, bool host_staged = false) const;
  /// alpha and beta of a p-GPU communicator: the worst pair's level.
  Link link_for(std::int64_t p, bool host_staged = false) const;
  /// Throws InputError when the description is inconsistent (names the system).
  void validate() const;
};

/// `s` with every level above one node (span > gpus_per_node, direct and host-staged) at
/// the given bandwidth of one adapter (NIC; per GPU where each GPU has its own: a
/// calibrated node_bandwidth is dropped) and latency; 0 keeps a value. For network
/// co-design sweeps.
System with_inter_node(System s, double bandwidth_Bps, double latency_s);

/// What a co-design sweep changes in a system (its network and input axes); 0 keeps a value.
struct Overrides {
  double inter_node_bandwidth_Bps = 0;  ///< with_inter_node's
  double inter_node_latency_s = 0;
  std::int64_t cpu_cores_per_node = 0;  ///< InputPipeline's
  double node_read_Bps = 0;
  double filesystem_Bps = 0;
};
/// `s` with the overrides that are set: with_inter_node, then the input pipeline's values.
System with_overrides(System s, const Overrides& o);
/// The bytes a system holds beyond sizeof(System) (names, levels): what a sweep keeps per
/// network variant.
std::size_t footprint_bytes(const System& s);

}  // namespace paradise::system
