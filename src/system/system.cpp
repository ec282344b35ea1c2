#include "paradise/system/system.hpp"

#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::system {

const NetworkLevel& System::level_for(std::int64_t p, bool host_staged) const {
  const auto& ls = host_staged && !host_staged_levels.empty() ? host_staged_levels : levels;
  for (const auto& l : ls) {
    if (p <= l.span_gpus) return l;
  }
  return ls.back();
}

Link System::link_for(std::int64_t p, bool host_staged) const {
  const NetworkLevel& l = level_for(p, host_staged);
  return Link{l.latency_s, 1.0 / l.bandwidth_Bps, 0.0};
}

void System::validate() const {
  const auto fail = [&](const std::string& what) {
    throw InputError("system '" + name + "': " + what);
  };
  if (gpus_per_node < 1) fail("gpus_per_node must be >= 1");
  if (max_gpus < gpus_per_node) fail("max_gpus must be >= gpus_per_node");
  if (gpu.peak_fp32_flops <= 0) fail("the GPU needs peak_fp32_TFLOPs > 0");
  if (gpu.memory_bytes <= 0) fail("the GPU needs memory_GiB (or memory_GB) > 0");
  if (!(gpu.reserved_bytes >= 0 && gpu.reserved_bytes < gpu.memory_bytes))
    fail("reserved_MiB must be >= 0 and below the capacity");
  if (!(gpu.memory_bandwidth_efficiency > 0 && gpu.memory_bandwidth_efficiency <= 1))
    fail("memory_bandwidth_efficiency must be in (0, 1]");
  for (std::size_t k = 0; k < gpu.class_efficiency_max.size(); ++k) {
    const double most = most_efficiency_max(static_cast<GemmClass>(k));
    for (std::size_t p = 0; p < kPrecisionKeyNames.size(); ++p) {
      const double e = gpu.class_efficiency_max[k][p];
      if (e >= 0 && e <= most) continue;
      std::ostringstream what;
      what << efficiency_key(static_cast<GemmClass>(k), p) << " = " << e << ": must be in (0, "
           << most << "]";
      fail(what.str());
    }
  }
  for (const auto& by_precision : gpu.grouped_attainment) {
    for (const double a : by_precision) {
      if (!(a >= 0 && a <= 1)) fail("every attainment_KIND_PRECISION must be in (0, 1]");
    }
  }
  if (!(gpu.kernel_launch_s >= 0)) fail("kernel_launch_us must be >= 0");
  if (!(gpu.variability_fraction >= 0 && gpu.variability_fraction <= 1))
    fail("variability_percent must be in [0, 100]");
  if (gpu.memory_bandwidth_Bps <= 0) fail("the GPU needs memory_bandwidth_GBps > 0");
  if (!(gpu.gemm_efficiency_max > 0 && gpu.gemm_efficiency_max <= 1))
    fail("gemm_efficiency_max must be in (0, 1]");
  if (!(gpu.gemm_half_dim >= 0)) fail("gemm_half_dim must be >= 0");
  if (memory_margin_fraction < 0 || memory_margin_fraction >= 1)
    fail("memory_margin must be in [0, 1)");
  for (const auto* ls : {&levels, &host_staged_levels}) {
    std::int64_t span = 0;
    for (const auto& l : *ls) {
      if (l.span_gpus <= span)
        fail("level '" + l.name + "': span_gpus must grow from level to level");
      if (l.bandwidth_Bps <= 0) fail("level '" + l.name + "': bandwidth_GBps must be > 0");
      if (l.latency_s < 0) fail("level '" + l.name + "': latency_us must be >= 0");
      if (l.oversubscription < 1) fail("level '" + l.name + "': oversubscription must be >= 1");
      span = l.span_gpus;
    }
  }
  if (levels.empty()) fail("needs at least one [level.NAME] section");
  if (levels.front().span_gpus != gpus_per_node)
    fail("the first level must span one node (gpus_per_node GPUs)");
  if (levels.back().span_gpus < max_gpus) fail("the last level must span max_gpus");
}

System with_inter_node(System s, double bandwidth_Bps, double latency_s) {
  for (auto* ls : {&s.levels, &s.host_staged_levels}) {
    for (auto& l : *ls) {
      if (l.span_gpus <= s.gpus_per_node) continue;
      if (bandwidth_Bps > 0) {
        l.bandwidth_Bps = bandwidth_Bps;
        l.node_bandwidth = false;  // the value given is one adapter's (NIC's), not a node's
      }
      if (latency_s > 0) l.latency_s = latency_s;
    }
  }
  return s;
}

System with_overrides(System s, const Overrides& o) {
  s = with_inter_node(std::move(s), o.inter_node_bandwidth_Bps, o.inter_node_latency_s);
  if (o.cpu_cores_per_node > 0) s.input.cpu_cores_per_node = o.cpu_cores_per_node;
  if (o.node_read_Bps > 0) s.input.node_read_Bps = o.node_read_Bps;
  if (o.filesystem_Bps > 0) s.input.filesystem_Bps = o.filesystem_Bps;
  return s;
}

std::size_t footprint_bytes(const System& s) {
  std::size_t n = heap_bytes(s.name) + heap_bytes(s.description) + heap_bytes(s.gpu.name);
  for (const auto* levels : {&s.levels, &s.host_staged_levels}) {
    n += levels->capacity() * sizeof(NetworkLevel);
    for (const auto& l : *levels) n += heap_bytes(l.name);
  }
  return n;
}

}  // namespace paradise::system
