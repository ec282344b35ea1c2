#include "paradise/report/systems.hpp"

#include <string>

#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"

namespace paradise::report {
namespace {

std::string levels_text(const system::System& s) {
  std::string text;
  for (const auto& l : s.levels) {
    text += (text.empty() ? "" : "; ") + l.name + " " + std::to_string(l.span_gpus) + ": " +
            fixed(l.bandwidth_Bps / 1e9, 1) + ", " + fixed(l.latency_s * 1e6, 2);
  }
  return text;
}

void write_levels_json(JsonWriter& j, const std::vector<system::NetworkLevel>& levels) {
  j.begin_array();
  for (const auto& l : levels) {
    j.begin_object();
    j.key("name").value(l.name);
    j.key("span_gpus").value(l.span_gpus);
    j.key("bandwidth_Bps").value(l.bandwidth_Bps);
    j.key("latency_s").value(l.latency_s);
    j.key("oversubscription").value(l.oversubscription);
    j.key("node_bandwidth").value(l.node_bandwidth);
    j.end_object();
  }
  j.end_array();
}

void print_levels(std::ostream& out, const char* title,
                  const std::vector<system::NetworkLevel>& levels) {
  TextTable t;
  t.add_column(title, TextTable::Align::Left);
  t.add_column("span GPUs");
  t.add_column("GB/s per GPU");
  t.add_column("latency us");
  t.add_column("oversubscription");
  t.add_column("bandwidth of", TextTable::Align::Left);
  for (const auto& l : levels) {
    t.add_row({l.name, with_commas(l.span_gpus), fixed(l.bandwidth_Bps / 1e9, 3),
               fixed(l.latency_s * 1e6, 3), fixed(l.oversubscription, 2),
               l.node_bandwidth ? "a node (calibrated collective)" : "one adapter or link"});
  }
  t.print(out);
}

// The fitted e_max per kernel class, one line per class with a value of its own.
std::string class_efficiencies(const system::Gpu& g) {
  std::string out;
  for (std::size_t k = 0; k < system::kGemmClassNames.size(); ++k) {
    const auto& by = g.class_efficiency_max[k];
    if (by[0] <= 0 && by[1] <= 0 && by[2] <= 0) continue;
    out += "         " + std::string(system::kGemmClassNames[k]) + " e_max";
    for (std::size_t p = 0; p < by.size(); ++p) {
      out += " " + std::string(system::kPrecisionKeyNames[p]) + " " +
             fixed(g.efficiency_max(static_cast<system::GemmClass>(k), p), 3);
    }
    out += "\n";
  }
  for (std::size_t k = 0; k < system::kGroupedConvNames.size(); ++k) {
    const auto& by = g.grouped_attainment[k];
    if (by[0] <= 0 && by[1] <= 0 && by[2] <= 0) continue;
    out += "         " + std::string(system::kGroupedConvNames[k]) + " conv attainment";
    for (std::size_t p = 0; p < by.size(); ++p) {
      out += " " + std::string(system::kPrecisionKeyNames[p]) + " " +
             fixed(g.attainment(static_cast<system::GroupedConv>(k), p), 3);
    }
    out += "\n";
  }
  return out;
}

}  // namespace

void print_system_list(std::ostream& out, const std::vector<system::System>& systems) {
  TextTable t;
  t.add_column("system", TextTable::Align::Left);
  t.add_column("GPU", TextTable::Align::Left);
  t.add_column("GPUs/node");
  t.add_column("max GPUs");
  t.add_column("fp32 TFLOP/s");
  t.add_column("memory GiB");  // HBM as sold (ParaDL's ABCI: 16e9 B, 14.9 GiB)
  t.add_column("margin");      // the fraction of memory kept free: usable = memory x (1 - margin)
  t.add_column("network levels (span GPUs: GB/s, us)", TextTable::Align::Left);
  for (const auto& s : systems) {
    t.add_row({s.name, s.gpu.name, std::to_string(s.gpus_per_node), std::to_string(s.max_gpus),
               fixed(s.gpu.peak_fp32_flops / 1e12, 1),
               fixed(s.gpu.memory_bytes / (1024.0 * 1024 * 1024), 1),
               fixed(s.memory_margin_fraction, 2), levels_text(s)});
  }
  t.print(out);
}

// SI units (bytes, seconds, FLOP/s), as inside the model
void write_system_json(JsonWriter& j, const system::System& s) {
  j.begin_object();
  j.key("name").value(s.name);
  j.key("description").value(s.description);
  j.key("gpus_per_node").value(s.gpus_per_node);
  j.key("max_gpus").value(s.max_gpus);
  j.key("nics_per_node").value(s.nics_per_node);
  j.key("memory_margin").value(s.memory_margin_fraction);
  j.key("usable_memory_bytes").value(s.usable_memory_bytes());
  j.key("gpu").begin_object();
  j.key("name").value(s.gpu.name);
  j.key("memory_bytes").value(s.gpu.memory_bytes);
  j.key("reserved_bytes").value(s.gpu.reserved_bytes);
  j.key("memory_bandwidth_Bps").value(s.gpu.memory_bandwidth_Bps);
  j.key("memory_bandwidth_efficiency").value(s.gpu.memory_bandwidth_efficiency);
  j.key("peak_fp32_flops").value(s.gpu.peak_fp32_flops);
  j.key("peak_tf32_flops").value(s.gpu.peak_tf32_flops);
  j.key("peak_fp16_flops").value(s.gpu.peak_fp16_flops);
  j.key("gemm_efficiency_max").value(s.gpu.gemm_efficiency_max);
  j.key("gemm_half_dim").value(s.gpu.gemm_half_dim);
  j.key("efficiency_max").begin_object();
  for (std::size_t k = 0; k < system::kGemmClassNames.size(); ++k) {
    j.key(std::string(system::kGemmClassNames[k])).begin_object();
    for (std::size_t p = 0; p < system::kPrecisionKeyNames.size(); ++p)
      j.key(std::string(system::kPrecisionKeyNames[p]))
          .value(s.gpu.efficiency_max(static_cast<system::GemmClass>(k), p));
    j.end_object();
  }
  j.end_object();
  j.key("attainment").begin_object();
  for (std::size_t k = 0; k < system::kGroupedConvNames.size(); ++k) {
    j.key(std::string(system::kGroupedConvNames[k])).begin_object();
    for (std::size_t p = 0; p < system::kPrecisionKeyNames.size(); ++p)
      j.key(std::string(system::kPrecisionKeyNames[p]))
          .value(s.gpu.attainment(static_cast<system::GroupedConv>(k), p));
    j.end_object();
  }
  j.end_object();
  j.key("kernel_launch_s").value(s.gpu.kernel_launch_s);
  j.key("variability_fraction").value(s.gpu.variability_fraction);
  j.end_object();
  j.key("input").begin_object();
  j.key("cpu_cores_per_node").value(s.input.cpu_cores_per_node);
  j.key("jpeg_samples_per_core_s").value(s.input.jpeg_samples_per_core_s);
  j.key("raw_Bps_per_core").value(s.input.raw_Bps_per_core);
  j.key("node_read_Bps").value(s.input.node_read_Bps);
  j.key("filesystem_Bps").value(s.input.filesystem_Bps);
  j.end_object();
  j.key("host").begin_object();
  j.key("pcie_Bps").value(s.host.bandwidth_Bps);
  j.key("gpus_per_switch").value(s.host.gpus_per_switch);
  j.key("copy_latency_s").value(s.host.latency_s);
  j.end_object();
  j.key("levels");
  write_levels_json(j, s.levels);
  j.key("host_staged_levels");
  write_levels_json(j, s.host_staged_levels);
  j.end_object();
}

void print_system(std::ostream& out, const system::System& s) {
  const auto tflops = [](double f) { return f > 0 ? fixed(f / 1e12, 1) : std::string("none"); };
  out << "system   " << printable(s.name, false)
      << (s.description.empty() ? "" : ": " + printable(s.description, false)) << "\n"
      << "GPU      " << printable(s.gpu.name, false) << ": peak fp32 "
      << tflops(s.gpu.peak_fp32_flops) << ", tf32 " << tflops(s.gpu.peak_tf32_flops)
      << ", fp16/bf16 " << tflops(s.gpu.peak_fp16_flops) << " TFLOP/s; memory bandwidth "
      << fixed(s.gpu.memory_bandwidth_Bps / 1e9, 0) << " GB/s\n"
      << "GEMM     efficiency " << fixed(s.gpu.gemm_efficiency_max, 3)
      << " x g(M) g(N) g(K), g(x) = x / (x + " << fixed(s.gpu.gemm_half_dim, 1)
      << ") (paradise variant's roofline)\n"
      << class_efficiencies(s.gpu) << "fixed    " << fixed(s.gpu.kernel_launch_s * 1e6, 1)
      << " us per kernel launched; memory roof " << fixed(s.gpu.memory_bandwidth_efficiency, 2)
      << " of the peak bandwidth; variability " << fixed(s.gpu.variability_fraction * 100, 1)
      << "% between GPUs\n"
      << "memory   " << human_bytes(s.gpu.memory_bytes) << " per GPU, "
      << human_bytes(s.gpu.reserved_bytes) << " reserved by the driver, margin "
      << fixed(s.memory_margin_fraction, 3) << ": " << human_bytes(s.usable_memory_bytes())
      << " usable\n"
      << "nodes    " << s.gpus_per_node << " GPUs, "
      << (s.nics_per_node > 0 ? std::to_string(s.nics_per_node) + " network adapters"
                              : std::string("one network adapter per GPU"))
      << "; at most " << with_commas(s.max_gpus) << " GPUs\n"
      << "host     "
      << (s.host.bandwidth_Bps > 0
              ? fixed(s.host.bandwidth_Bps / 1e9, 1) + " GB/s PCIe per switch, " +
                    std::to_string(s.host.gpus_per_switch) + " GPUs per switch, " +
                    fixed(s.host.latency_s * 1e6, 1) + " us per copy (host-staged exchanges)"
              : std::string("no host link given (host-staged exchanges cannot be costed)"))
      << "\n\n";
  print_levels(out, "network level", s.levels);
  if (!s.host_staged_levels.empty()) {
    out << '\n';
    print_levels(out, "host-staged level", s.host_staged_levels);
  }
}

}  // namespace paradise::report
