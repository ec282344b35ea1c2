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
  int n = 0;
  while (std::getline(in, s)) {
    ++n;
    if (s.find("SUMMARY") != std::string::npos) {
      in_summary = true;
      continue;
    }
    if (s.rfind("####", 0) == 0) in_summary = false;
    if (!in_summary || s.rfind("name", 0) == 0) continue;
    std::istringstream f(s);
    Row r;
    double time = 0, cost = 0;
    if (f >> r.name >> r.batch >> r.gpus >> r.mem >> r.comp >> r.comm >> time >> cost) {
      r.line = n;
      rows.push_back(r);
    }
  }
  return rows;
}

struct Case {
  std::string log;
  std::string net;
  std::string layer_config;  // empty: ParaDL's default (convolutions)
  std::string system;        // abci-plx15 for the HPDC'20 data_* logs, abci otherwise
};

Kind kind_of(const std::string& row_name) {
  static const std::map<std::string, Kind> kinds = {
      {"single", Kind::Serial},   {"data", Kind::Data},     {"filter3", Kind::Filter},
      {"filter1", Kind::Filter},  {"chan3", Kind::Channel}, {"chan1", Kind::Channel},
      {"spatial", Kind::Spatial}, {"df", Kind::DataFilter}, {"ds", Kind::DataSpatial}};
  return kinds.at(row_name);
}

void check(const Case& c) {
  const auto net = model::read_paradl_net(kDir + "/model/" + c.net);
  Workload w;
  w.model = net.stats;
  w.layer_time_s = spread_by_flops(net.stats, net.measured_time_per_sample_s());
  w.active = c.layer_config.empty()
                 ? default_active_layers(net.stats)
                 : model::read_layer_config(kDir + "/model/" + c.layer_config, net.stats);
  w.dataset_samples = net.samples;
  w.system = system::find_system(c.system);
  const auto rows = summary_rows(kDir + "/log/" + c.log);
  ASSERT_FALSE(rows.empty()) << c.log;
  for (const Row& r : rows) {
    Config cfg;
    cfg.kind = kind_of(r.name);
    cfg.gpus = static_cast<std::int64_t>(r.gpus);
    cfg.batch = static_cast<std::int64_t>(r.batch);
    const Prediction p = predict(w, cfg);
    const std::string where = c.log + ":" + std::to_string(r.line) + " " + r.name +
                              " p=" + std::to_string(cfg.gpus) + " B=" + std::to_string(cfg.batch);
    EXPECT_NEAR(p.memory_per_gpu_bytes / r.mem, 1.0, 0.005) << where;
    EXPECT_NEAR(p.epoch_compute_s / r.comp, 1.0, 0.005) << where;
    if (r.comm == 0) {
      EXPECT_EQ(p.epoch_communication_s, 0.0) << where;
    } else {
      EXPECT_NEAR(p.epoch_communication_s / r.comm, 1.0, 0.005) << where;
    }
  }
}

TEST(ParadlLogs, DataParallelScaling) {
  check({"data_resnet_scaling_proj.log", "RESNET50_ImageNet_profall.net_sc", "", "abci-plx15"});
  check({"data_vgg_scaling_proj.log", "VGG_ImageNet_profall.net_sc", "", "abci-plx15"});
  check({"data_alexnet_scaling_proj.log", "ALEXNET_ImageNet_profall.net_sc", "", "abci-plx15"});
}

TEST(ParadlLogs, FilterParallelScaling) {
  check({"filter_resnet_scaling_proj.log", "RESNET50_ImageNet_profall.net_sc", "filter_resnet.lc",
         "abci"});
  check({"filter_vgg_scaling_proj.log", "VGG_ImageNet_profall.net_sc", "filter_vgg.lc", "abci"});
  check({"filter_alexnet_scaling_proj.log", "ALEXNET_ImageNet_profall.net_sc", "filter_alexnet.lc",
         "abci"});
}

TEST(ParadlLogs, ChannelParallelScaling) {
  check({"channel_resnet_scaling_proj.log", "RESNET50_ImageNet_profall.net_sc", "channel_resnet.lc",
         "abci"});
}

}  // namespace
}  // namespace paradise::strategy
