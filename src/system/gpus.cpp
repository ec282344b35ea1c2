// The built-in GPUs (docs/gpu-profiles.md). Sources, by field:
// - peaks, capacity and bandwidth: NVIDIA's V100, A100, H100 and H200 datasheets (dense fp32,
//   tf32 and fp16 tensor-core FLOP/s; HBM in GiB, the vendor's "GB");
// - reserved: capacity - cudaGetDeviceProperties().totalGlobalMem (deviceQuery);
// - memory_bandwidth_efficiency: gpu-benches' gpu-stream triad / peak;
// - kernel_launch_s: PyTorch eager's host time per op on a CUDA tensor (dispatch and launch);
// all in tests/data/measured/kernel-overheads.csv with their links (docs/measured-data.md).
// - class_efficiency_max, grouped_attainment: tools/fit-gpu-profiles on the fit rows of
//   single-gpu-throughput.csv.
// - variability_fraction: Sinha et al., "Not All GPUs Are Created Equal" (arXiv:2208.11035v3, the
//   revision of their SC'22 paper), 8% average over five clusters and five applications.
#include "gpus.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace paradise::system::gpus {
namespace {

constexpr double kTFLOPs = 1e12;
constexpr double kGBps = 1e9;
constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kEagerOp = 7e-6;      // PyTorch eager op on a tiny CUDA tensor, ~7 us wall time
constexpr double kVariability = 0.08;  // Sinha et al. 2022: GPUs of one SKU, whisker range
constexpr std::size_t kFp32 = 0, kTf32 = 1, kMixed = 2;

Gpu datasheet(std::string name, double fp32, double tf32, double fp16, double capacity_gib,
              double bandwidth_GBps) {
  Gpu g;
  g.name = std::move(name);
  g.peak_fp32_flops = fp32 * kTFLOPs;
  g.peak_tf32_flops = tf32 * kTFLOPs;
  g.peak_fp16_flops = fp16 * kTFLOPs;
  g.memory_bytes = capacity_gib * kGiB;
  g.memory_bandwidth_Bps = bandwidth_GBps * kGBps;
  g.kernel_launch_s = kEagerOp;
  g.variability_fraction = kVariability;
  return g;
}

// e_max at one precision (tools/fit-gpu-profiles): of 2-D convolutions with dense layers, and
// of 3-D convolutions
void fitted(Gpu& g, std::size_t precision, double conv2d, double conv3d) {
  g.class_efficiency_max[static_cast<std::size_t>(GemmClass::Conv2d)][precision] = conv2d;
  g.class_efficiency_max[static_cast<std::size_t>(GemmClass::Dense)][precision] = conv2d;
  g.class_efficiency_max[static_cast<std::size_t>(GemmClass::Conv3d)][precision] = conv3d;
}

// The roofline attainment at one precision (tools/fit-gpu-profiles' second stage): of
// depthwise convolutions (EfficientNet's rows) and of other grouped ones (ResNeXt's)
void attained(Gpu& g, std::size_t precision, double depthwise, double grouped) {
  g.grouped_attainment[static_cast<std::size_t>(GroupedConv::Depthwise)][precision] = depthwise;
  g.grouped_attainment[static_cast<std::size_t>(GroupedConv::Grouped)][precision] = grouped;
}

// The V100's fitted fp32 values (fit rows: 18 2-D without grouped convolutions, 4 3-D, 6
// depthwise, 6 grouped), the 3x3 stride-1 convolutions apart, which cuDNN runs with
// Winograd's algorithm on the FP32 units (docs/gpu-profiles.md §conv3x3): the shares of the
// FP32 units, which the later GPUs, without fp32 fit rows, take as theirs (an assumption, docs)
void fp32_units(Gpu& g) {
  fitted(g, kFp32, 0.960, 0.868);
  g.class_efficiency_max[static_cast<std::size_t>(GemmClass::Conv3x3)][kFp32] = 1.806;
  attained(g, kFp32, 0.146, 0.178);
}

// The A100's fitted tensor-core values (fit rows per precision: 16 2-D without grouped
// convolutions, 6 3-D, 4 depthwise, 3 grouped)
void a100_tensor_cores(Gpu& g) {
  fitted(g, kTf32, 0.436, 0.474);
  fitted(g, kMixed, 0.524, 0.690);
  attained(g, kTf32, 0.080, 0.106);
  attained(g, kMixed, 0.148, 0.198);
}

}  // namespace

Gpu v100_sxm2_16gb() {
  Gpu g = datasheet("V100-SXM2-16GB", 15.7, 0, 125, 16, 900);
  // V100-DGXS-32GB: 32 GiB - 34,084,028,416 B; no 16 GB figure, taken as the same
  g.reserved_bytes = 32 * kGiB - 34084028416.0;
  g.memory_bandwidth_efficiency = 814.0 / 900;  // triad 814 GB/s
  // fit rows per precision: 18 2-D without grouped convolutions, 4 3-D, 6 depthwise, 6
  // grouped
  fp32_units(g);
  fitted(g, kMixed, 0.620, 0.680);
  attained(g, kMixed, 0.138, 0.336);
  return g;
}

Gpu a100_sxm4_80gb() {
  Gpu g = datasheet("A100-SXM4-80GB", 19.5, 156, 312, 80, 2039);
  g.reserved_bytes = 80 * kGiB - 85100068864.0;   // deviceQuery, driver 555
  g.memory_bandwidth_efficiency = 1360.0 / 1555;  // triad 1,360 GB/s on an A100 40GB
  fp32_units(g);
  a100_tensor_cores(g);
  return g;
}

Gpu h100_sxm5_80gb() {
  Gpu g = datasheet("H100-SXM5-80GB", 67, 494.7, 989.4, 80, 3350);
  g.reserved_bytes = 80 * kGiB - 85045477376.0;   // deviceQuery, driver 565
  g.memory_bandwidth_efficiency = 1832.0 / 2000;  // triad 1,832 GB/s on an H100 PCIe (2 TB/s)
  fp32_units(g);
  a100_tensor_cores(g);  // no H100 fit rows: the A100's shares, an assumption (docs)
  return g;
}

Gpu h200_sxm5_141gb() {
  Gpu g = datasheet("H200-SXM5-141GB", 67, 494.7, 989.4, 141, 4800);
  g.reserved_bytes = 80 * kGiB - 85045477376.0;   // no H200 figure: the H100's
  g.memory_bandwidth_efficiency = 3534.0 / 4800;  // triad 3,534 GB/s
  fp32_units(g);
  a100_tensor_cores(g);  // no H200 fit rows: the A100's shares, an assumption (docs)
  return g;
}

}  // namespace paradise::system::gpus
