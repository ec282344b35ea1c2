#include "paradise/calibrate/system_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>

#include "paradise/system/catalog.hpp"

namespace paradise::calibrate {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024;

// `value` in a key's unit (value / scale): the fewest significant digits that read back to
// `value` exactly by the reader's rule (system_file.cpp: text x scale), so 3.4 us is written
// 3.4, not 3.3999999999999995; 17 digits where no shorter text does
std::string number(double value, double scale = 1) {
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value / scale);
    if (std::strtod(buf, nullptr) * scale == value) return buf;
  }
  return buf;
}

/// The INI reader cuts values at '#' and ';' (comments) and lines at newlines.
std::string value(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '#' || c == ';' || c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

void write_levels(std::ostream& out, const char* section,
                  const std::vector<system::NetworkLevel>& levels) {
  for (const auto& l : levels) {
    out << '[' << section << '.' << value(l.name) << "]\n"
        << "span_gpus = " << l.span_gpus << '\n'
        << "bandwidth_GBps = " << number(l.bandwidth_Bps, 1e9) << '\n'
        << "latency_us = " << number(l.latency_s, 1e-6) << '\n'
        << "oversubscription = " << number(l.oversubscription) << '\n'
        << (l.node_bandwidth ? "node_bandwidth = true\n" : "") << '\n';
  }
}

// The [input] section where the system has one.
void write_input(std::ostream& out, const system::InputPipeline& in) {
  if (in.cpu_cores_per_node == 0 && in.node_read_Bps == 0 && in.filesystem_Bps == 0) return;
  out << "[input]\n";
  if (in.cpu_cores_per_node > 0) out << "cpu_cores_per_node = " << in.cpu_cores_per_node << '\n';
  out << "jpeg_samples_per_core = " << number(in.jpeg_samples_per_core_s) << '\n'
      << "raw_MBps_per_core = " << number(in.raw_Bps_per_core, 1e6) << '\n'
      << "node_read_GBps = " << number(in.node_read_Bps, 1e9) << '\n'
      << "filesystem_GBps = " << number(in.filesystem_Bps, 1e9) << "\n\n";
}

// The [host] section where the system's host link is known.
void write_host(std::ostream& out, const system::HostLink& h) {
  if (h.bandwidth_Bps <= 0) return;
  out << "[host]\n"
      << "pcie_GBps = " << number(h.bandwidth_Bps, 1e9) << '\n'
      << "gpus_per_switch = " << h.gpus_per_switch << '\n'
      << "copy_latency_us = " << number(h.latency_s, 1e-6) << "\n\n";
}

// The capacity in GiB where it is a whole number of them (HBM), else in 10^9 bytes (ParaDL's
// ABCI: 16e9) so that the file reads short.
std::string capacity(double bytes) {
  const double gib = bytes / kGiB;
  return gib == std::floor(gib) ? "memory_GiB = " + number(bytes, kGiB)
                                : "memory_GB = " + number(bytes, 1e9);
}

// The fitted e_max per kernel class and precision that differ from gemm_efficiency_max.
void write_class_efficiencies(std::ostream& out, const system::Gpu& g) {
  for (std::size_t k = 0; k < system::kGemmClassNames.size(); ++k) {
    for (std::size_t p = 0; p < system::kPrecisionKeyNames.size(); ++p) {
      if (g.class_efficiency_max[k][p] <= 0) continue;
      out << system::efficiency_key(static_cast<system::GemmClass>(k), p) << " = "
          << number(g.class_efficiency_max[k][p]) << '\n';
    }
  }
  for (std::size_t k = 0; k < system::kGroupedConvNames.size(); ++k) {
    for (std::size_t p = 0; p < system::kPrecisionKeyNames.size(); ++p) {
      if (g.grouped_attainment[k][p] <= 0) continue;
      out << system::attainment_key(static_cast<system::GroupedConv>(k), p) << " = "
          << number(g.grouped_attainment[k][p]) << '\n';
    }
  }
}

}  // namespace

void write_system_file(std::ostream& out, const system::System& s, const std::string& comment) {
  std::istringstream lines(comment);
  for (std::string l; std::getline(lines, l);) out << "# " << l << '\n';
  out << "[system]\n"
      << "name = " << value(s.name) << '\n';
  if (!s.description.empty()) out << "description = " << value(s.description) << '\n';
  out << "gpus_per_node = " << s.gpus_per_node << '\n'
      << "max_gpus = " << s.max_gpus << '\n'
      << "memory_margin = " << number(s.memory_margin_fraction) << '\n';
  if (s.nics_per_node > 0) out << "nics_per_node = " << s.nics_per_node << '\n';
  out << '\n'
      << "[gpu]\n"
      << "name = " << value(s.gpu.name) << '\n'
      << capacity(s.gpu.memory_bytes) << '\n'
      << "reserved_MiB = " << number(s.gpu.reserved_bytes, kMiB) << '\n'
      << "memory_bandwidth_GBps = " << number(s.gpu.memory_bandwidth_Bps, 1e9) << '\n'
      << "memory_bandwidth_efficiency = " << number(s.gpu.memory_bandwidth_efficiency) << '\n'
      << "peak_fp32_TFLOPs = " << number(s.gpu.peak_fp32_flops, 1e12) << '\n'
      << "peak_tf32_TFLOPs = " << number(s.gpu.peak_tf32_flops, 1e12) << '\n'
      << "peak_fp16_TFLOPs = " << number(s.gpu.peak_fp16_flops, 1e12) << '\n'
      << "gemm_efficiency_max = " << number(s.gpu.gemm_efficiency_max) << '\n'
      << "gemm_half_dim = " << number(s.gpu.gemm_half_dim) << '\n';
  write_class_efficiencies(out, s.gpu);
  out << "kernel_launch_us = " << number(s.gpu.kernel_launch_s, 1e-6) << '\n'
      << "variability_percent = " << number(s.gpu.variability_fraction, 1e-2) << "\n\n";
  write_input(out, s.input);
  write_host(out, s.host);
  write_levels(out, "level", s.levels);
  write_levels(out, "host_level", s.host_staged_levels);
}

}  // namespace paradise::calibrate
