// Reproduces ParaDL's own projections: every SUMMARY row of the logs in
// tests/data/paradl/log (ParaDL's parallel_analysis.py output, Oct 2020) must come out of
// `--variant paradl` within 0.5% for memory, compute and communication per epoch.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "paradise/model/paradl_files.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::strategy {
namespace {

const std::string kDir = PARADISE_PARADL_DIR;

struct Row {
  int section = 0;  // runs concatenated in one log, counted from 0
  std::string name;
  double batch = 0, gpus = 0, mem = 0, comp = 0, comm = 0;
  int line = 0;
};

// The SUMMARY rows of every run in a log: "name B p Mem Tcomp Tcomm Time Cost".
std::vector<Row> summary_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<Row> rows;
  std::string s;
  bool in_summary = false;
  int n = 0, section = -1;
  while (std::getline(in, s)) {
    ++n;
    if (s.find("SUMMARY") != std::string::npos) {
      in_summary = true;
      continue;
    }
    if (s.rfind("####", 0) == 0) {
      in_summary = false;
      ++section;
    }
    if (!in_summary || s.rfind("name", 0) == 0) continue;
    std::istringstream f(s);
    Row r;
    double time = 0, cost = 0;
    if (f >> r.name >> r.batch >> r.gpus >> r.mem >> r.comp >> r.comm >> time >> cost) {
      r.line = n;
      r.section = section;
      rows.push_back(r);
    }
  }
  return rows;
}

using HE = ParadlVersion::HybridExchange;

struct Case {
  std::string log;
  std::string net;
  std::string system;     // abci-plx15: PLX cable 15 us (HPDC'20 runs); abci: 20 us (released code)
  std::string filter_lc;  // layers for filter, channel and data+filter
  std::string spatial_lc;  // layers for spatial and data+spatial
  ParadlVersion version;
  std::int64_t p2 = 0;
  int section = -1;  // only this run of the log; -1: all
};

Kind kind_of(const std::string& row_name) {
  static const std::map<std::string, Kind> kinds = {
      {"single", Kind::Serial},   {"data", Kind::Data},     {"filter3", Kind::Filter},
      {"filter1", Kind::Filter},  {"chan3", Kind::Channel}, {"chan1", Kind::Channel},
      {"spatial", Kind::Spatial}, {"df", Kind::DataFilter}, {"ds", Kind::DataSpatial}};
  return kinds.at(row_name);
}

Workload workload(const Case& c, const std::string& lc) {
  const auto net = model::read_paradl_net(kDir + "/model/" + c.net);
  Workload w;
  w.model = net.stats;
  w.layer_time_s = spread_by_flops(net.stats, net.measured_time_per_sample_s());
  w.active = lc.empty() ? default_active_layers(net.stats)
                        : model::read_layer_config(kDir + "/model/" + lc, net.stats);
  w.dataset_samples = net.samples;
  w.system = system::find_system(c.system);
  return w;
}

int check_case(const Case& c) {
  const Workload filter_w = workload(c, c.filter_lc);
  const Workload spatial_w = workload(c, c.spatial_lc);
  const auto rows = summary_rows(kDir + "/log/" + c.log);
  int checked = 0;
  for (const Row& r : rows) {
    if (c.section >= 0 && r.section != c.section) continue;
    Config cfg;
    cfg.kind = kind_of(r.name);
    cfg.gpus = static_cast<std::int64_t>(r.gpus);
    cfg.batch = static_cast<std::int64_t>(r.batch);
    cfg.p2 = c.p2;
    cfg.paradl.version = c.version;
    const bool spatial = cfg.kind == Kind::Spatial || cfg.kind == Kind::DataSpatial;
    const Prediction p = predict(spatial ? spatial_w : filter_w, cfg);
    const std::string where = c.log + ":" + std::to_string(r.line) + " " + r.name +
                              " p=" + std::to_string(cfg.gpus) + " B=" + std::to_string(cfg.batch);
    EXPECT_NE(p.status, Status::Invalid) << where << ": " << p.reason;
    EXPECT_NEAR(p.memory_per_gpu_bytes / r.mem, 1.0, 0.005) << where;
    EXPECT_NEAR(p.epoch_compute_s / r.comp, 1.0, 0.005) << where;
    if (r.comm == 0) {
      EXPECT_EQ(p.epoch_communication_s, 0.0) << where;
    } else {
      EXPECT_NEAR(p.epoch_communication_s / r.comm, 1.0, 0.005) << where;
    }
    ++checked;
  }
  EXPECT_GT(checked, 0) << c.log;
  return checked;
}

int check(std::string log, std::string net, std::string sys, std::string filter_lc,
          std::string spatial_lc, ParadlVersion version = {}, std::int64_t p2 = 0,
          int section = -1) {
  Case c;
  c.log = std::move(log);
  c.net = std::move(net);
  c.system = std::move(sys);
  c.filter_lc = std::move(filter_lc);
  c.spatial_lc = std::move(spatial_lc);
  c.version = version;
  c.p2 = p2;
  c.section = section;
  return check_case(c);
}

const std::string kResnet = "RESNET50_ImageNet_profall.net_sc";
const std::string kVgg = "VGG_ImageNet_profall.net_sc";
const std::string kAlexnet = "ALEXNET_ImageNet_profall.net_sc";

// The HPDC'20 scaling runs: PLX cable latency 15 us.
TEST(ParadlLogs, DataFilterChannelScalingRuns) {
  int rows = 0;
  for (const auto& [name, net] :
       {std::pair{"resnet", kResnet}, {"vgg", kVgg}, {"alexnet", kAlexnet}}) {
    const std::string lc = std::string("filter_") + name + ".lc";
    rows += check(std::string("data_") + name + "_scaling_proj.log", net, "abci-plx15", "", "");
    rows += check(std::string("filter_") + name + "_scaling_proj.log", net, "abci-plx15", lc, "");
    rows += check(std::string("channel_") + name + "_scaling_proj.log", net, "abci-plx15", lc, "");
  }
  EXPECT_EQ(rows, 3 * 12 + 3 * 6 + 1 + 3 * 6 + 1);
}

// resnet_ranking*.log (HPDC'20): data+filter exchanged sum|w| with split layers / p2 at
// bandwidth / p2; data+spatial used the W-only halo of one sample over NVLink and a
// global allreduce at bandwidth / 4 whatever p2.
TEST(ParadlLogs, Hpdc20RankingRuns) {
  ParadlVersion v;
  v.df_exchange = HE::SplitContention;
  v.ds_width_only_halo = true;
  v.ds_halo_one_sample = true;
  v.ds_halo_link_override = true;
  v.ds_halo_alpha_s = 9e-6;
  v.ds_halo_beta_s_per_byte = 1 / 50e9;
  v.ds_global_beta_factor = 4;
  check("resnet_ranking.log", kResnet, "abci-plx15", "filter_resnet.lc", "spatial_resnet.lc", v);
  check("resnet_ranking_2.log", kResnet, "abci-plx15", "filter_resnet.lc", "spatial_resnet.lc", v,
        2);
}

// ranking_log/resnet/{4,16,64,1024}: the released code's constants (PLX 20 us).
TEST(ParadlLogs, ResnetRankingRuns) {
  ParadlVersion old_df;
  old_df.df_exchange = HE::SplitContention;
  const std::string f = "filter_resnet.lc", s = "spatial_resnet.lc";
  for (const char* log : {"ranking_log/resnet/4/data.log", "ranking_log/resnet/4/filter.log",
                          "ranking_log/resnet/4/spatial.log", "ranking_log/resnet/16/data.log",
                          "ranking_log/resnet/16/filter.log", "ranking_log/resnet/64/data.log"}) {
    check(log, kResnet, "abci", f, s);
  }
  check("ranking_log/resnet/16/channel.log", kResnet, "abci", "channel_resnet.lc", s);
  check("ranking_log/resnet/64/channel.log", kResnet, "abci", "channel_resnet.lc", s);
  check("ranking_log/resnet/16/df.log", kResnet, "abci", f, s, old_df);
  check("ranking_log/resnet/64/df.log", kResnet, "abci", f, s, old_df);
  check("ranking_log/resnet/1024/df.log", kResnet, "abci", f, s);
  check("ranking_log/resnet/64/filter.log2", kResnet, "abci", f, s, {}, 0, 0);
  ParadlVersion nvlink_alpha;
  nvlink_alpha.filter_nvlink_latency = true;  // the second run: alpha = 9 us for every p
  check("ranking_log/resnet/64/filter.log2", kResnet, "abci", f, s, nvlink_alpha, 0, 1);
}

// data+spatial runs with the W-only halo of b samples through a given link.
TEST(ParadlLogs, ResnetDataSpatialWidthOnlyHalo) {
  ParadlVersion v;
  v.ds_width_only_halo = true;
  v.ds_halo_link_override = true;
  v.ds_global_beta_factor = 2;
  v.ds_halo_alpha_s = 20.11e-6;  // resnet/16 (log line 404-406)
  v.ds_halo_beta_s_per_byte = 1e-9;
  check("ranking_log/resnet/16/data+spatial.log", kResnet, "abci", "", "spatial_resnet.lc", v);
  v.ds_halo_alpha_s = 3.00011e-3;  // resnet/64: PCIe without GPUDirect
  v.ds_halo_beta_s_per_byte = 2.5e-10;
  check("ranking_log/resnet/64/data+spatial.log", kResnet, "abci", "", "spatial_resnet.lc", v);
}

// The released code's data+spatial (C*k*H[*D] halo through the host) on VGG and CosmoFlow.
TEST(ParadlLogs, ReleasedDataSpatial) {
  check("ranking_log/vgg/ds.log", kVgg, "abci", "", "spatial_vgg.lc");
  ParadlVersion iterations;
  iterations.ds_compute_uses_iterations = true;  // cosmoflow.log: T_comp = I b c
  check("ranking_log/cosmoflow.log", "COSMOFLOW.net", "abci", "", "spatial_cosmolow.lc",
        iterations);
  ParadlVersion gather;
  gather.ds_gather_divided_by_p2 = true;  // cosmoflow_256.log: allgather of b|y_s|/p2
  check("ranking_log/cosmoflow_256.log", "COSMOFLOW.net_256", "abci", "", "spatial_cosmolow.lc",
        gather);
  ParadlVersion g2;
  g2.ds_global_beta_factor = 2;  // cosmoflow.log_2: global allreduce at bandwidth / 2
  check("ranking_log/resnet/1024/cosmoflow.log_2", "COSMOFLOW.net", "abci", "",
        "spatial_cosmolow.lc", g2);
}

TEST(ParadlLogs, VggRankingRuns) {
  check("ranking_log/vgg/filter.log", kVgg, "abci", "filter_vgg.lc", "");
  check("ranking_log/vgg/df.log", kVgg, "abci", "filter_vgg.lc", "");
  ParadlVersion plain;
  plain.df_exchange = HE::Plain;  // df.log2: no contention divisor
  check("ranking_log/vgg/df.log2", kVgg, "abci", "filter_vgg.lc", "", plain);
}

}  // namespace
}  // namespace paradise::strategy
