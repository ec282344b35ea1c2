// The input module: loading a workload's files, checked before the cost model computes.
#include <gtest/gtest.h>

#include <string>

#include "paradise/input/layer_times.hpp"
#include "paradise/input/workload.hpp"
#include "paradise/strategy/config.hpp"

namespace paradise::input {
namespace {

// The layer-times file's precision column takes the names predict reads, no other.
TEST(LayerTimes, PrecisionNamesAreTheOnesPredictReads) {
  for (const char* name : {"fp32", "tf32", "mixed", "fp16", "bf16", "fp8", "FP32", ""})
    EXPECT_EQ(is_precision_name(name), strategy::precision_from_name(name).has_value()) << name;
}

// A workload's files as loaded: the model at the dataset's shape, no measured time unless
// one is given (the cost model then prices FLOPs at the peak), no .lc layers.
TEST(LoadWorkload, LoadsModelDatasetAndSystem) {
  const LoadedWorkload w = load_workload({"resnet50", "imagenet", "abci", "", 0});
  EXPECT_EQ(w.model.name, "resnet50");
  EXPECT_EQ(w.dataset_samples, 1281167);  // ImageNet-1k's training images
  EXPECT_TRUE(w.measured_layer_time_s.empty());
  EXPECT_EQ(w.time_per_sample_s, 0);
  EXPECT_TRUE(w.active.empty());
  const LoadedWorkload given = load_workload({"resnet50", "imagenet", "abci", "", 0.01});
  EXPECT_EQ(given.time_per_sample_s, 0.01);
  EXPECT_EQ(given.time_source, "measured 0.010000 s per sample (given), spread by FLOPs");
}

TEST(LoadWorkload, RefusesATimePerSampleBesideLayerTimes) {
  WorkloadSpec spec{"resnet50", "imagenet", "abci", "", 0.01, "x.csv"};
  EXPECT_THROW(load_workload(spec), InputError);
}

}  // namespace
}  // namespace paradise::input
