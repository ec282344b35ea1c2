#include "paradise/system/catalog.hpp"

#include <algorithm>
#include <sstream>

#include "gpus.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/text.hpp"

namespace paradise::system {
namespace {

constexpr double kGB = 1e9;
constexpr double kUs = 1e-6;

// A PCIe switch's uplink as a pinned cudaMemcpy reaches it (NVIDIA's bandwidthTest: about
// 12 GB/s on Gen3 x16, 24 on Gen4, 50 on Gen5), two GPUs behind each switch (the DGX
// block diagrams; ABCI: two PLX switches, each with two V100s and one HCA), 10 us per copy
// (docs/implementations.md §host-link).
constexpr HostLink kPcieGen3{12 * kGB, 2, 10 * kUs};
constexpr HostLink kPcieGen4{24 * kGB, 2, 10 * kUs};
constexpr HostLink kPcieGen5{50 * kGB, 2, 10 * kUs};

// NVIDIA DGX SuperPOD-style cluster: NVLink/NVSwitch inside a node, a rail-optimised
// leaf per 32-node scalable unit, a non-blocking spine above. Latencies from NCCL's
// tuning constants (hwLat NVLink 3.4 us, NET 9.6 us; docs/cost-model.md §nccl).
System dgx(std::string name, std::string description, Gpu gpu, double nvlink_GBps,
           double nic_GBps_per_gpu, std::int64_t max_gpus, HostLink host) {
  System s;
  s.name = std::move(name);
  s.description = std::move(description);
  s.gpu = std::move(gpu);
  s.gpus_per_node = 8;
  s.max_gpus = max_gpus;
  s.levels = {{"nvlink", 8, nvlink_GBps * kGB, 3.4 * kUs, 1},
              {"leaf", 256, nic_GBps_per_gpu * kGB, 9.6 * kUs, 1},
              {"spine", max_gpus, nic_GBps_per_gpu * kGB, 10.6 * kUs, 1}};
  s.memory_margin_fraction = 0.05;
  s.host = host;
  return s;
}

}  // namespace

System abci(double plx_cable_latency_s) {
  // parallel_analysis.py get_network_factor: NVLink 50 GB/s, 9 us; PLX 16 GB/s, 110 ns;
  // IB EDR 12.5 GB/s; leaf/FBB 90 ns, spine 400 ns; 17 nodes (68 GPUs) per leaf group,
  // 34 nodes per rack; 1088 nodes; 1:3 over-subscription above the rack (TR §V-A).
  const double plx = 110e-9, leaf = 90e-9, spine = 400e-9;
  const double endpoint = 2 * (plx_cable_latency_s + plx);
  System s;
  s.name = plx_cable_latency_s == 20e-6 ? "abci" : "abci-plx15";
  s.description = "ABCI as ParaDL models it: 4x V100-16GB per node, NVLink 50 GB/s, EDR 12.5 GB/s";
  // ParaDL's memory: 16e9 bytes (MEM_PER_NODE), nothing reserved. The V100's measured
  // bandwidth share and launch cost, but not its fitted e_max: those come from NVIDIA's tuned
  // containers (DGX-1 tables), not from ParaDL's Chainer runs here (docs/gpu-profiles.md)
  s.gpu = gpus::v100_sxm2_16gb();
  s.gpu.memory_bytes = 16e9;
  s.gpu.reserved_bytes = 0;
  s.gpu.class_efficiency_max = {};
  s.gpu.grouped_attainment = {};
  s.gpus_per_node = 4;
  s.nics_per_node = 2;  // 2 EDR HCAs per node (ABCI spec; docs/cost-model.md §abci)
  s.host = kPcieGen3;
  s.max_gpus = 4352;
  s.levels = {{"nvlink", 4, 50 * kGB, 9 * kUs, 1},
              {"leaf", 68, 12.5 * kGB, std::max(9 * kUs, endpoint + leaf), 1},
              {"rack", 136, 12.5 * kGB, endpoint + leaf + 2 * leaf, 1},
              {"machine", 4352, 12.5 * kGB, endpoint + spine + 2 * leaf + 2 * leaf, 3}};
  // GPUDIRECT=False: through the host, 16 GB/s PCIe and PLX_CABLE_LAT2 = 3 ms in a node,
  // max(18 us, 4(cable + PLX) + leaf) across nodes (docs/cost-model.md §abci, table).
  s.host_staged_levels = {{"pcie-host", 4, 16 * kGB, 3e-3 + plx, 1},
                          {"leaf-host", 68, 12.5 * kGB, std::max(18 * kUs, 2 * endpoint + leaf), 1},
                          {"rack", 136, 12.5 * kGB, endpoint + leaf + 2 * leaf, 1},
                          {"machine", 4352, 12.5 * kGB, endpoint + spine + 4 * leaf, 3}};
  return s;
}

const std::vector<System>& builtin_systems() {
  static const std::vector<System> systems = [] {
    std::vector<System> v{abci(20e-6), abci(15e-6)};
    // The GPUs of gpus.cpp; NVLink per-direction bandwidth; one NIC per GPU.
    v.push_back(dgx("dgx1-v100",
                    "DGX-1 cluster: 8x V100-16GB, NVLink 2 hybrid cube mesh, 4x EDR per node",
                    gpus::v100_sxm2_16gb(), 150, 6.25, 4096, kPcieGen3));
    v.push_back(dgx("dgx-a100",
                    "DGX A100 SuperPOD: 8x A100-80GB, NVSwitch 300 GB/s, 8x HDR 200 Gb/s",
                    gpus::a100_sxm4_80gb(), 300, 25, 4096, kPcieGen4));
    v.push_back(dgx("dgx-h100",
                    "DGX H100 SuperPOD: 8x H100-80GB, NVSwitch 450 GB/s, 8x NDR 400 Gb/s",
                    gpus::h100_sxm5_80gb(), 450, 50, 4096, kPcieGen5));
    v.push_back(dgx("dgx-h200",
                    "DGX H200 cluster: 8x H200-141GB, NVSwitch 450 GB/s, 8x NDR 400 Gb/s",
                    gpus::h200_sxm5_141gb(), 450, 50, 4096, kPcieGen5));
    for (const auto& s : v) s.validate();
    return v;
  }();
  return systems;
}

System find_system(std::string_view name_or_path) {
  for (const auto& s : builtin_systems()) {
    if (s.name == name_or_path) return s;
  }
  const std::string path(name_or_path);
  if (const auto text = read_definition_file(path, "system file", ".system")) {
    std::istringstream in(*text);
    return parse_system_file(in, path);
  }
  std::string known;
  for (const auto& s : builtin_systems()) known += (known.empty() ? "" : ", ") + s.name;
  throw InputError("unknown system '" + path + "'; built-in: " + known + " (or a *.system file)");
}

}  // namespace paradise::system
