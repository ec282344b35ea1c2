// Systems: ParaDL's ABCI constants (docs/cost-model.md §abci) and system files.
#include <gtest/gtest.h>

#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::system {
namespace {

TEST(Abci, WorstPairLatencyByCommunicatorSize) {
  const System s = abci();
  // docs/cost-model.md §abci: p <= 4 NVLink 9 us at 50 GB/s; <= 68 2(20 us + 110 ns) + 90 ns
  // = 40.31 us;
  // <= 136 40.49 us; beyond 40.98 us, all at 12.5 GB/s
  EXPECT_NEAR(s.link_for(4).alpha_s, 9e-6, 1e-15);
  EXPECT_NEAR(s.link_for(4).beta_s_per_byte, 1 / 50e9, 1e-25);
  EXPECT_NEAR(s.link_for(5).alpha_s, 40.31e-6, 1e-12);
  EXPECT_NEAR(s.link_for(68).alpha_s, 40.31e-6, 1e-12);
  EXPECT_NEAR(s.link_for(69).alpha_s, 40.49e-6, 1e-12);
  EXPECT_NEAR(s.link_for(1024).alpha_s, 40.98e-6, 1e-12);
  EXPECT_NEAR(s.link_for(1024).beta_s_per_byte, 1 / 12.5e9, 1e-25);
}

TEST(Abci, HostStagedTransfersWithoutGpuDirect) {
  const System s = abci();
  // docs/cost-model.md §abci, GPUDIRECT=False: 16 GB/s and 3.00011 ms in a node; 80.53 us across
  // nodes
  EXPECT_NEAR(s.link_for(4, true).alpha_s, 3.00011e-3, 1e-12);
  EXPECT_NEAR(s.link_for(4, true).beta_s_per_byte, 1 / 16e9, 1e-25);
  EXPECT_NEAR(s.link_for(8, true).alpha_s, 80.53e-6, 1e-12);
}

TEST(Abci, Plx15VariantOfTheDataLogs) {
  // 2(15 us + 110 ns) + 90 ns = 30.31 us
  EXPECT_NEAR(find_system("abci-plx15").link_for(8).alpha_s, 30.31e-6, 1e-12);
}

TEST(Catalog, UnknownNameListsBuiltins) {
  try {
    find_system("summit");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dgx-a100"), std::string::npos);
  }
}

const char* kFile =
    "[system]\nname = tiny\ngpus_per_node = 2\nmax_gpus = 16\nmemory_margin = 0.1\n"
    "[gpu]\nmemory_GB = 32\nmemory_bandwidth_GBps = 1000\npeak_fp32_TFLOPs = 10\n"
    "[level.node]\nspan_gpus = 2\nbandwidth_GBps = 100\nlatency_us = 2\n"
    "[level.net]\nspan_gpus = 16\nbandwidth_GBps = 10\nlatency_us = 5\noversubscription = 2\n";

TEST(SystemFile, UnitsAreConvertedAtParseTime) {
  std::istringstream in(kFile);
  const System s = parse_system_file(in, "tiny.system");
  EXPECT_DOUBLE_EQ(s.gpu.memory_bytes, 32e9);
  EXPECT_DOUBLE_EQ(s.gpu.peak_fp32_flops, 10e12);
  EXPECT_DOUBLE_EQ(s.link_for(3).alpha_s, 5e-6);
  EXPECT_DOUBLE_EQ(s.link_for(3).beta_s_per_byte, 1 / 10e9);
  EXPECT_DOUBLE_EQ(s.levels.back().oversubscription, 2);
  // no curve given: the documented defaults (system.hpp, 0.8 and 32)
  EXPECT_DOUBLE_EQ(s.gpu.gemm_efficiency_max, 0.8);
  EXPECT_DOUBLE_EQ(s.gpu.gemm_half_dim, 32);
}

// A network co-design sweep's bandwidth is one GPU's (adapter's): on a calibrated level whose
// bandwidth was a whole node's (node_bandwidth = true), the override drops that meaning (it
// was divided by the adapters again); the node level keeps its own.
TEST(SystemFile, InterNodeOverrideIsPerGpu) {
  std::string text = kFile;
  text += "node_bandwidth = true\n";  // [level.net], the last section
  std::istringstream in(text);
  const System s = parse_system_file(in, "tiny.system");
  ASSERT_TRUE(s.levels.back().node_bandwidth);
  const System o = with_inter_node(s, 50e9, 0);
  EXPECT_FALSE(o.levels.back().node_bandwidth);
  EXPECT_DOUBLE_EQ(o.levels.back().bandwidth_Bps, 50e9);
  EXPECT_DOUBLE_EQ(o.levels.back().latency_s, 5e-6);  // 0: kept
  EXPECT_DOUBLE_EQ(o.levels.front().bandwidth_Bps, 100e9);
  EXPECT_TRUE(with_inter_node(s, 0, 1e-6).levels.back().node_bandwidth);  // bandwidth kept
}

TEST(SystemFile, GemmEfficiencyCurveKeys) {
  std::string text = kFile;
  text.insert(text.find("[level.node]"), "gemm_efficiency_max = 0.55\ngemm_half_dim = 48\n");
  std::istringstream in(text);
  const System s = parse_system_file(in, "tiny.system");
  EXPECT_DOUBLE_EQ(s.gpu.gemm_efficiency_max, 0.55);
  EXPECT_DOUBLE_EQ(s.gpu.gemm_half_dim, 48);
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_system_file(in, "x.system");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// kFile with the first `from` replaced by `to`.
std::string kfile_with(const std::string& from, const std::string& to) {
  std::string text = kFile;
  return text.replace(text.find(from), from.size(), to);
}

TEST(SystemFile, ErrorsNameFileLineKeyAndValue) {
  std::string bad = kFile;
  bad.replace(bad.find("latency_us = 5"), 14, "latency_ms = 5");
  EXPECT_EQ(error_of(bad).substr(0, 36), "x.system:17: latency_ms '5': unknown");
  // a name shows in tables, sweep axes and attributes: never empty
  std::string unnamed = kFile;
  unnamed.replace(unnamed.find("name = "),
                  unnamed.find('\n', unnamed.find("name = ")) - unnamed.find("name = "), "name =");
  EXPECT_NE(error_of(unnamed).find(": name '': must not be empty"), std::string::npos)
      << error_of(unnamed);
  std::string negative = kFile;
  negative.replace(negative.find("memory_GB = 32"), 14, "memory_GB = -1");
  EXPECT_EQ(error_of(negative), "x.system:7: memory_GB '-1': must be > 0");
  EXPECT_NE(error_of("[system]\nname = x\n").find("missing key 'gpus_per_node'"),
            std::string::npos);
  // the checks across keys are said at the line of the key that breaks them (they had no
  // line: "x.system: system 'tiny': level 'net': span_gpus must grow ...")
  EXPECT_EQ(error_of(kfile_with("span_gpus = 16", "span_gpus = 1")),
            "x.system:15: span_gpus '1': must be greater than the span_gpus of [level.node] "
            "(2): levels go from the node outwards");
  EXPECT_EQ(error_of(kfile_with("max_gpus = 16", "max_gpus = 1")),
            "x.system:4: max_gpus '1': must be >= gpus_per_node (2)");
  EXPECT_EQ(error_of(kfile_with("span_gpus = 2", "span_gpus = 4")),
            "x.system:11: span_gpus '4': the first level spans one node: must be "
            "gpus_per_node (2)");
  EXPECT_EQ(error_of(kfile_with("span_gpus = 16", "span_gpus = 8")),
            "x.system:15: span_gpus '8': the last level spans the machine: must be >= max_gpus "
            "(16)");
  std::string no_levels(kFile, std::string(kFile).find("[level.node]"));
  EXPECT_NE(error_of(no_levels).find("x.system"), std::string::npos) << error_of(no_levels);
  EXPECT_NE(error_of(no_levels).find("level.NAME"), std::string::npos) << error_of(no_levels);
  std::string over = kFile;  // an efficiency above 1 would beat the peak
  over.insert(over.find("[level.node]"), "gemm_efficiency_max = 1.5\n");
  EXPECT_EQ(error_of(over), "x.system:10: gemm_efficiency_max '1.5': must be <= 1 (implausible)");
  // an absurd latency (1e9 us = 1,000 s: a nanosecond figure typed in picoseconds, say) is
  // refused, not turned into a prediction; so are a margin of the whole memory and an
  // over-subscription below 1 (a level faster than its links), with their line
  std::string all_margin = kFile;
  all_margin.replace(all_margin.find("memory_margin = 0.1"), 19, "memory_margin = 1");
  EXPECT_EQ(error_of(all_margin), "x.system:5: memory_margin '1': must be in [0, 1)");
  std::string under = kFile;
  under.replace(under.find("oversubscription = 2"), 20, "oversubscription = 0.5");
  EXPECT_EQ(error_of(under), "x.system:18: oversubscription '0.5': must be in [1, 1000)");
  std::string slow = kFile;
  slow.replace(slow.find("latency_us = 5"), 14, "latency_us = 1e9");
  EXPECT_EQ(error_of(slow), "x.system:17: latency_us '1e9': must be <= 1e+07 (implausible)");
  // vanishing rates (a denormal peak, a bandwidth of 5e-324) gave infinite times with
  // status ok; at the bounds (a megaflop GPU, a kilobyte per second) they stay finite
  std::string tiny_peak = kFile;
  tiny_peak.replace(tiny_peak.find("peak_fp32_TFLOPs = 10"), 21, "peak_fp32_TFLOPs = 1e-320");
  EXPECT_EQ(error_of(tiny_peak),
            "x.system:9: peak_fp32_TFLOPs '1e-320': must be >= 1e-06 (implausible)");
  std::string tiny_link = kFile;
  tiny_link.replace(tiny_link.find("bandwidth_GBps = 10\n"), 19, "bandwidth_GBps = 4.9e-324");
  EXPECT_EQ(error_of(tiny_link),
            "x.system:16: bandwidth_GBps '4.9e-324': must be >= 1e-06 (implausible)");
  std::string tiny_memory = kFile;
  tiny_memory.replace(tiny_memory.find("memory_bandwidth_GBps = 1000"), 28,
                      "memory_bandwidth_GBps = 1e-9");
  EXPECT_EQ(error_of(tiny_memory),
            "x.system:8: memory_bandwidth_GBps '1e-9': must be >= 1e-06 (implausible)");
  std::string negative_h = kFile;
  negative_h.insert(negative_h.find("[level.node]"), "gemm_half_dim = -4\n");
  EXPECT_EQ(error_of(negative_h), "x.system:10: gemm_half_dim '-4': must be >= 0");
  // a section given twice: the second [gpu] (80 GB) silently replaced the first
  EXPECT_EQ(error_of(std::string(kFile) + "[gpu]\nmemory_GB = 80\n"),
            "x.system:19: section '[gpu]': given twice (first at line 6)");
  EXPECT_EQ(error_of(std::string(kFile) + "[level.]\nspan_gpus = 32\n"),
            "x.system:19: section '[level.]': expected [name]");
}

}  // namespace
}  // namespace paradise::system
