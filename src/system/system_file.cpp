// *.system files (INI). Units are in the key names and converted here, once:
//   [system]  name, description, gpus_per_node, max_gpus, memory_margin (fraction),
//             nics_per_node (optional: network adapters per node, default one per GPU)
//   [gpu]     name, memory_GiB (or memory_GB in 10^9 bytes), memory_bandwidth_GBps,
//             peak_fp32_TFLOPs, peak_tf32_TFLOPs, peak_fp16_TFLOPs; optional, the extended
//             model's: gemm_efficiency_max, gemm_half_dim, efficiency_max_CLASS_PRECISION
//             (conv2d/conv3d/dense x fp32/tf32/mixed), memory_bandwidth_efficiency,
//             reserved_MiB, kernel_launch_us, variability_percent (see System::Gpu)
//   [input]   optional: cpu_cores_per_node, jpeg_samples_per_core, raw_MBps_per_core,
//             node_read_GBps, filesystem_GBps (the input pipeline, see System::InputPipeline)
//   [host]    optional: pcie_GBps, gpus_per_switch, copy_latency_us (see System::HostLink)
//   [level.NAME] / [host_level.NAME]  span_gpus, bandwidth_GBps, latency_us, oversubscription,
//             node_bandwidth (optional: true when the bandwidth is a whole node's)
#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/ini.hpp"
#include "paradise/core/text.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::system {
namespace {

using Setter =
    std::function<void(const std::string& value, const Origin& o, const std::string& key)>;

// A number in the key's unit, > 0 (or >= 0) and at most `most`: a bound far above any
// machine's (an exaflop GPU, a petabyte per second, a 10 s latency) that catches a unit
// slip or a typo before it yields 1e300-second predictions; a nonzero value also at least
// `least`, far below any machine's (a megaflop GPU, a kilobyte per second), before it
// yields infinite ones.
Setter number(double& target, double scale, bool positive, double most, double least = 0) {
  return [&target, scale, positive, most, least](const std::string& v, const Origin& o,
                                                 const std::string& k) {
    const double x = parse_double(v, o, k);
    if (positive ? x <= 0 : x < 0) fail_input(o, k, v, positive ? "must be > 0" : "must be >= 0");
    if (x > most)
      fail_input(o, k, v, "must be <= " + (std::ostringstream() << most).str() + " (implausible)");
    if (x != 0 && x < least)
      fail_input(o, k, v, "must be >= " + (std::ostringstream() << least).str() + " (implausible)");
    target = x * scale;
  };
}
// A number in [lo, hi) with the key's bounds in the message (memory_margin, oversubscription).
Setter in_range(double& target, double lo, double hi, const char* range) {
  return [&target, lo, hi, range](const std::string& v, const Origin& o, const std::string& k) {
    const double x = parse_double(v, o, k);
    if (x < lo || x >= hi) fail_input(o, k, v, std::string("must be in ") + range);
    target = x;
  };
}
Setter integer(std::int64_t& target) {
  return [&target](const std::string& v, const Origin& o, const std::string& k) {
    target = parse_int(v, o, k);
    if (target < 1) fail_input(o, k, v, "must be >= 1");
  };
}
Setter boolean(bool& target) {
  return [&target](const std::string& v, const Origin& o, const std::string& k) {
    if (v != "true" && v != "false") fail_input(o, k, v, "expected true or false");
    target = v == "true";
  };
}
Setter text(std::string& target) {
  return [&target](const std::string& v, const Origin&, const std::string&) { target = v; };
}

// A name: what tables, sweep axes and file attributes show, so never empty.
Setter name(std::string& target) {
  return [&target](const std::string& v, const Origin& o, const std::string& key) {
    if (v.empty()) fail_input(o, key, v, "must not be empty");
    target = v;
  };
}

void apply(const IniSection& section, const std::map<std::string, Setter>& keys,
           const std::vector<std::string>& required, const std::string& file) {
  for (const auto& e : section.entries) {
    const auto it = keys.find(e.key);
    if (it == keys.end()) {
      std::string known;
      for (const auto& [k, s] : keys) known += (known.empty() ? "" : ", ") + k;
      fail_input({file, e.line}, e.key, e.value,
                 "unknown key in [" + section.name + "]; known: " + known);
    }
    it->second(e.value, {file, e.line}, e.key);
  }
  for (const auto& r : required) {
    const bool given = std::any_of(section.entries.begin(), section.entries.end(),
                                   [&](const IniEntry& e) { return e.key == r; });
    if (!given)
      fail_input({file, section.line}, "section", section.name, "missing key '" + r + "'");
  }
}

// The entry `key` of the section named `section` (given: its required keys were checked).
const IniEntry& entry_of(const std::vector<IniSection>& sections, const std::string& section,
                         const std::string& key) {
  for (const auto& x : sections) {
    if (x.name != section) continue;
    for (const auto& e : x.entries) {
      if (e.key == key) return e;
    }
  }
  throw std::logic_error("system file: no " + section + "." + key);
}

// The checks across keys of System::validate, said at the line of the key that breaks them.
void check_across_keys(const System& s, const std::vector<IniSection>& sections,
                       const std::string& file) {
  const auto fail = [&](const std::string& section, const std::string& key,
                        const std::string& what) {
    const IniEntry& e = entry_of(sections, section, key);
    fail_input({file, e.line}, key, e.value, what);
  };
  if (s.gpu.reserved_bytes >= s.gpu.memory_bytes)
    fail("gpu", "reserved_MiB", "must be below the capacity (memory_GiB or memory_GB)");
  if (s.max_gpus < s.gpus_per_node)
    fail("system", "max_gpus",
         "must be >= gpus_per_node (" + std::to_string(s.gpus_per_node) + ")");
  if (s.levels.empty())
    fail_input({file, 0}, "section", "level.NAME", "missing: a system needs at least one");
  for (const auto& [ls, prefix] : {std::pair{&s.levels, std::string("level.")},
                                   std::pair{&s.host_staged_levels, std::string("host_level.")}}) {
    for (std::size_t i = 1; i < ls->size(); ++i) {
      const auto& l = (*ls)[i];
      const auto& before = (*ls)[i - 1];
      if (l.span_gpus <= before.span_gpus)
        fail(prefix + l.name, "span_gpus",
             "must be greater than the span_gpus of [" + prefix + before.name + "] (" +
                 std::to_string(before.span_gpus) + "): levels go from the node outwards");
    }
  }
  const auto& first = s.levels.front();
  if (first.span_gpus != s.gpus_per_node)
    fail("level." + first.name, "span_gpus",
         "the first level spans one node: must be gpus_per_node (" +
             std::to_string(s.gpus_per_node) + ")");
  const auto& last = s.levels.back();
  if (last.span_gpus < s.max_gpus)
    fail("level." + last.name, "span_gpus",
         "the last level spans the machine: must be >= max_gpus (" + std::to_string(s.max_gpus) +
             ")");
}

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024;

std::map<std::string, Setter> gpu_keys(Gpu& g) {
  std::map<std::string, Setter> keys{
      {"name", name(g.name)},
      // HBM is sold in GiB: a "16 GB" V100 holds 16 x 2^30 bytes (docs/measured-data.md)
      {"memory_GiB", number(g.memory_bytes, kGiB, true, 1e6, 1e-6)},
      {"memory_GB", number(g.memory_bytes, 1e9, true, 1e6, 1e-6)},
      {"reserved_MiB", number(g.reserved_bytes, kMiB, false, 1e6)},
      {"memory_bandwidth_GBps", number(g.memory_bandwidth_Bps, 1e9, true, 1e6, 1e-6)},
      {"memory_bandwidth_efficiency", number(g.memory_bandwidth_efficiency, 1, true, 1, 1e-3)},
      {"peak_fp32_TFLOPs", number(g.peak_fp32_flops, 1e12, true, 1e6, 1e-6)},
      {"peak_tf32_TFLOPs", number(g.peak_tf32_flops, 1e12, false, 1e6, 1e-6)},
      {"peak_fp16_TFLOPs", number(g.peak_fp16_flops, 1e12, false, 1e6, 1e-6)},
      {"gemm_efficiency_max", number(g.gemm_efficiency_max, 1, true, 1, 1e-4)},
      {"gemm_half_dim", number(g.gemm_half_dim, 1, false, 1e6)},
      {"kernel_launch_us", number(g.kernel_launch_s, 1e-6, false, 1e4)},
      {"variability_percent", number(g.variability_fraction, 1e-2, false, 100)}};
  for (std::size_t k = 0; k < kGemmClassNames.size(); ++k) {
    for (std::size_t p = 0; p < kPrecisionKeyNames.size(); ++p) {
      keys.emplace(efficiency_key(static_cast<GemmClass>(k), p),
                   number(g.class_efficiency_max[k][p], 1, true,
                          most_efficiency_max(static_cast<GemmClass>(k)), 1e-4));
    }
  }
  for (std::size_t k = 0; k < kGroupedConvNames.size(); ++k) {
    for (std::size_t p = 0; p < kPrecisionKeyNames.size(); ++p) {
      keys.emplace(attainment_key(static_cast<GroupedConv>(k), p),
                   number(g.grouped_attainment[k][p], 1, true, 1, 1e-4));
    }
  }
  return keys;
}

std::map<std::string, Setter> input_keys(InputPipeline& in) {
  return {{"cpu_cores_per_node", integer(in.cpu_cores_per_node)},
          {"jpeg_samples_per_core", number(in.jpeg_samples_per_core_s, 1, false, 1e7)},
          {"raw_MBps_per_core", number(in.raw_Bps_per_core, 1e6, false, 1e6, 1e-3)},
          {"node_read_GBps", number(in.node_read_Bps, 1e9, false, 1e6, 1e-6)},
          {"filesystem_GBps", number(in.filesystem_Bps, 1e9, false, 1e9, 1e-6)}};
}

// Exactly one of memory_GiB and memory_GB.
void check_capacity(const IniSection& section, const std::string& file) {
  const IniEntry* gib = nullptr;
  const IniEntry* gb = nullptr;
  for (const auto& e : section.entries) {
    if (e.key == "memory_GiB") gib = &e;
    if (e.key == "memory_GB") gb = &e;
  }
  if (!gib && !gb)
    fail_input({file, section.line}, "section", section.name,
               "missing key 'memory_GiB' (or 'memory_GB', in 10^9 bytes)");
  if (gib && gb)
    fail_input({file, gb->line}, gb->key, gb->value,
               "give memory_GiB or memory_GB, not both (line " + std::to_string(gib->line) + ")");
}

}  // namespace

std::string efficiency_key(GemmClass k, std::size_t precision) {
  return "efficiency_max_" + std::string(kGemmClassNames[static_cast<std::size_t>(k)]) + "_" +
         std::string(kPrecisionKeyNames[precision]);
}

std::string attainment_key(GroupedConv k, std::size_t precision) {
  return "attainment_" + std::string(kGroupedConvNames[static_cast<std::size_t>(k)]) + "_" +
         std::string(kPrecisionKeyNames[precision]);
}

System parse_system_file(std::istream& in, const std::string& file_name) {
  System s;
  bool has_system = false, has_gpu = false;
  const auto sections = parse_ini(in, file_name);
  for (const auto& section : sections) {
    if (section.name == "system") {
      has_system = true;
      apply(section,
            {{"name", name(s.name)},
             {"description", text(s.description)},
             {"gpus_per_node", integer(s.gpus_per_node)},
             {"max_gpus", integer(s.max_gpus)},
             {"memory_margin", in_range(s.memory_margin_fraction, 0, 1, "[0, 1)")},
             {"nics_per_node", integer(s.nics_per_node)}},
            {"name", "gpus_per_node", "max_gpus"}, file_name);
    } else if (section.name == "gpu") {
      has_gpu = true;
      apply(section, gpu_keys(s.gpu), {"memory_bandwidth_GBps", "peak_fp32_TFLOPs"}, file_name);
      check_capacity(section, file_name);
    } else if (section.name == "input") {
      apply(section, input_keys(s.input), {}, file_name);
    } else if (section.name == "host") {
      apply(section,
            {{"pcie_GBps", number(s.host.bandwidth_Bps, 1e9, true, 1e4, 1e-6)},
             {"gpus_per_switch", integer(s.host.gpus_per_switch)},
             {"copy_latency_us", number(s.host.latency_s, 1e-6, false, 1e6)}},
            {"pcie_GBps", "gpus_per_switch"}, file_name);
    } else if (section.name.starts_with("level.") || section.name.starts_with("host_level.")) {
      const bool host = section.name.starts_with("host_level.");
      auto& list = host ? s.host_staged_levels : s.levels;
      NetworkLevel& l = list.emplace_back();
      l.name = section.name.substr(section.name.find('.') + 1);
      apply(section,
            {{"span_gpus", integer(l.span_gpus)},
             {"bandwidth_GBps", number(l.bandwidth_Bps, 1e9, true, 1e6, 1e-6)},
             {"latency_us", number(l.latency_s, 1e-6, false, 1e7)},
             {"oversubscription", in_range(l.oversubscription, 1, 1e3, "[1, 1000)")},
             {"node_bandwidth", boolean(l.node_bandwidth)}},
            {"span_gpus", "bandwidth_GBps", "latency_us"}, file_name);
    } else {
      fail_input({file_name, section.line}, "section", section.name,
                 "unknown section; expected [system], [gpu], [input], [host], [level.NAME] or "
                 "[host_level.NAME]");
    }
  }
  if (!has_system) fail_input({file_name, 0}, "section", "system", "missing [system] section");
  if (!has_gpu) fail_input({file_name, 0}, "section", "gpu", "missing [gpu] section");
  check_across_keys(s, sections, file_name);
  try {
    s.validate();
  } catch (const InputError& e) {
    throw InputError(file_name + ": " + e.what());
  }
  return s;
}

}  // namespace paradise::system
