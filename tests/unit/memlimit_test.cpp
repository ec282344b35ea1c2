// Memory-limit searches against brute-force scans and a hand-derived value.
#include "paradise/sweep/memlimit.hpp"

#include <gtest/gtest.h>

#include "paradise/model/paradl_files.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::sweep {
namespace {

using strategy::Kind;
using strategy::Status;

strategy::Config config(Kind k, std::int64_t gpus, std::int64_t batch) {
  strategy::Config c;
  c.kind = k;
  c.gpus = gpus;
  c.batch = batch;
  return c;
}

TEST(LargestBatch, ParadlResnet50FitsSixtySixSamplesPerGpu) {
  // cost-model-notes §7.1: (16e9 / (2*4) - 22,734,016) / 29,790,964 = 66.37 samples per
  // 16 GB GPU, so on 8 GPUs the largest data-parallel batch is 8 * 66 = 528.
  const auto w = strategy::make_workload(
      {PARADISE_PARADL_DIR "/model/RESNET50_ImageNet_profall.net_sc", "", "abci", "", 0});
  EXPECT_EQ(largest_batch(w, config(Kind::Data, 8, 0), 1, 1 << 20).value, 528);
}

TEST(LargestBatch, EqualsABruteForceScan) {
  const auto w = strategy::make_workload({"vgg16", "imagenet", "dgx-a100", "", 0});
  for (Kind k : {Kind::Data, Kind::Filter, Kind::DataFilter, Kind::Pipeline}) {
    const auto c = config(k, 16, 0);
    const Limit fast = largest_batch(w, c, 1, 4096);
    std::int64_t brute = 0;
    for (std::int64_t b = 1; b <= 4096; ++b) {
      auto cb = c;
      cb.batch = b;
      if (strategy::predict(w, cb).status == Status::Ok) brute = b;
    }
    EXPECT_EQ(fast.value, brute) << strategy::kind_name(k);
    EXPECT_LT(fast.evaluations, 40) << strategy::kind_name(k);
  }
}

std::int64_t brute_resolution(const ResolutionFamily& f, const strategy::Config& c, std::int64_t lo,
                              std::int64_t hi, std::int64_t step) {
  std::int64_t best = 0;
  for (std::int64_t s = lo; s <= hi; s += step) {
    const auto w = f.at(s);
    if (w && strategy::predict(*w, c).status == Status::Ok) best = s;
  }
  return best;
}

TEST(LargestResolution, CosmoflowCubeEqualsABruteForceScan) {
  const ResolutionFamily f{{"cosmoflow", "cosmoflow", "abci", "", 0}};
  // spatial on 16 GPUs: the default split reaches further as the side grows (conv3 at 128^3,
  // conv4 at 256^3, conv5 at 512^3; `predict --format json`'s split_layer), the case where
  // memory could stop growing with the side and the bisection miss the brute-force answer
  for (const auto& c : {config(Kind::Data, 4, 4), config(Kind::DataSpatial, 64, 16),
                        config(Kind::Filter, 8, 1), config(Kind::Spatial, 16, 4)}) {
    const Limit fast = largest_resolution(f, c, 32, 700);
    EXPECT_EQ(fast.value, brute_resolution(f, c, 32, 700, 1)) << strategy::kind_name(c.kind);
    EXPECT_GT(fast.value, 0) << strategy::kind_name(c.kind);
    EXPECT_LT(fast.evaluations, 40);
  }
}

TEST(LargestResolution, Unet3dWithAStepOfEight) {
  const ResolutionFamily f{{"unet3d", "cosmoflow", "dgx-a100", "", 0}};
  const auto c = config(Kind::Data, 8, 8);
  EXPECT_EQ(largest_resolution(f, c, 16, 1024, 8).value, brute_resolution(f, c, 16, 1024, 8));
}

TEST(FewestGpus, CosmoflowAt512NeedsMoreGpusWithDataSpatial) {
  const auto w = strategy::make_workload({"cosmoflow", "cosmoflow512", "abci", "", 0});
  const std::vector<std::int64_t> gpus{4, 8, 16, 32, 64, 128, 256, 512, 1024};
  const Limit ds = fewest_gpus(w, config(Kind::DataSpatial, 0, 256), gpus);
  std::int64_t brute = 0;
  for (std::int64_t g : gpus) {
    auto c = config(Kind::DataSpatial, g, 256);
    if (strategy::predict(w, c).status == Status::Ok) {
      brute = g;
      break;
    }
  }
  EXPECT_EQ(ds.value, brute);
}

}  // namespace
}  // namespace paradise::sweep
