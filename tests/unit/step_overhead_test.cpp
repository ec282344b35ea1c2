// The framework's time per training step (implementation::Profile::step_overhead_s,
// docs/gpu-profiles.md §step-overhead): added once to every iteration of the extended model
// whose compute is not a measured time per whole step, never to ParaDL's.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "paradise/implementation/catalog.hpp"
#include "paradise_test_helpers.hpp"

namespace paradise::strategy {
namespace {

// One convolution on ABCI, 1,024 samples: 16 iterations at a batch of 64.
constexpr char kModel[] = "model oneconv\ninput 16x32x32\nc1 conv out=64 k=3 p=1\n";
constexpr char kDataset[] = "small:1024:16x32x32";

Prediction with_overhead(const Workload& w, Config c, double step_s) {
  c.implementation.step_overhead_s = step_s;
  return predict(w, c);
}

// By hand: the step adds 5 ms to each of the 16 iterations, and nothing else moves.
TEST(StepOverhead, AddsToEveryIterationOnce) {
  const auto w = written_model("oneconv", kModel, kDataset);
  for (const Kind k : {Kind::Serial, Kind::Data, Kind::Filter, Kind::Spatial}) {
    const auto c = paradise_config(k, k == Kind::Serial ? 1 : 4, 64);
    const auto none = with_overhead(w, c, 0), some = with_overhead(w, c, 5e-3);
    ASSERT_EQ(none.status, Status::Ok) << kind_name(k);
    ASSERT_EQ(none.iterations_per_epoch, 16) << kind_name(k);
    EXPECT_NEAR(some.iteration_time_s - none.iteration_time_s, 5e-3, 1e-12) << kind_name(k);
    EXPECT_NEAR(some.epoch_step_overhead_s, 16 * 5e-3, 1e-12) << kind_name(k);
    EXPECT_NEAR(some.epoch_time_s - none.epoch_time_s, 16 * 5e-3, 1e-12) << kind_name(k);
    EXPECT_EQ(some.epoch_compute_s, none.epoch_compute_s) << kind_name(k);
    EXPECT_EQ(some.epoch_communication_s, none.epoch_communication_s) << kind_name(k);
    EXPECT_EQ(none.epoch_step_overhead_s, 0) << kind_name(k);
  }
}

// The limiting factor is the framework where its time per step is the largest part: one
// convolution's step on 4 GPUs takes microseconds, so a second per step bounds it.
TEST(StepOverhead, BoundsTheStepWhenItIsTheLargestPart) {
  const auto w = written_model("oneconv", kModel, kDataset);
  const auto c = paradise_config(Kind::Data, 4, 64);
  const auto none = with_overhead(w, c, 0), huge = with_overhead(w, c, 1);
  ASSERT_LT(none.iteration_time_s, 1e-2);
  EXPECT_NE(none.limit, Limit::Framework);
  EXPECT_EQ(huge.limit, Limit::Framework);
  EXPECT_EQ(limit_name(huge.limit), "framework");
}

// Each built-in profile carries its framework's fitted value (tools/fit-gpu-profiles --check
// holds them to the data): Horovod's profiles their framework's, the others PyTorch's. A
// profile file's step_overhead_us reads back to it exactly; the default prediction charges it.
TEST(StepOverhead, BuiltinsCarryTheirFrameworksFittedValue) {
  using implementation::find_implementation;
  EXPECT_EQ(find_implementation("pytorch-nccl").profile.step_overhead_s,
            implementation::kPytorchStepOverhead_s);
  EXPECT_EQ(find_implementation("tensorflow-horovod").profile.step_overhead_s,
            implementation::kTensorflowStepOverhead_s);
  EXPECT_EQ(find_implementation("mxnet-horovod").profile.step_overhead_s,
            implementation::kMxnetStepOverhead_s);
  for (const auto* name : {"chainermnx", "mpi-host-staged"})
    EXPECT_EQ(find_implementation(name).profile.step_overhead_s,
              implementation::kPytorchStepOverhead_s)
        << name;
  for (const auto& i : implementation::builtin_implementations()) {
    std::istringstream file(implementation::implementation_file_text(i));
    const double us = i.profile.step_overhead_s * 1e6;
    EXPECT_NE(file.str().find("step_overhead_us = " + std::to_string(std::lround(us)) + "\n"),
              std::string::npos)
        << file.str();
    EXPECT_EQ(implementation::parse_implementation_file(file, "t.impl").profile.step_overhead_s,
              i.profile.step_overhead_s)
        << i.name;
  }
  const auto w = written_model("oneconv", kModel, kDataset);
  EXPECT_NEAR(predict(w, paradise_config(Kind::Data, 4, 64)).epoch_step_overhead_s,
              16 * implementation::kPytorchStepOverhead_s, 1e-12);
}

// Horovod's profiles move gradients as the default does: on 16 GPUs their data-parallel
// iteration differs from the default's by their time per step alone.
TEST(StepOverhead, HorovodProfilesDifferFromTheDefaultByTheStepAlone) {
  const auto w = written_model("oneconv", kModel, kDataset);
  auto c = paradise_config(Kind::Data, 16, 64);
  const auto base = predict(w, c);
  for (const auto* name : {"tensorflow-horovod", "mxnet-horovod"}) {
    c.implementation = implementation::find_implementation(name).profile;
    const auto p = predict(w, c);
    EXPECT_EQ(p.epoch_communication_s, base.epoch_communication_s) << name;
    EXPECT_EQ(p.epoch_compute_s, base.epoch_compute_s) << name;
    EXPECT_NEAR(p.iteration_time_s - base.iteration_time_s,
                c.implementation.step_overhead_s - implementation::kPytorchStepOverhead_s, 1e-12)
        << name;
  }
}

// A measured time per sample of whole steps holds the framework's time already (ParaDL's
// t_sample, calibrate's throughput, a ParaDL .net file): nothing is added. Per-layer times
// (profile_layers.py's CUDA events around each layer) do not hold it: it is added.
TEST(StepOverhead, NotAddedToAMeasuredTimePerWholeStep) {
  const std::string path = testing::TempDir() + "/oneconv.model";
  std::ofstream(path) << kModel;
  const auto measured = make_workload({path, kDataset, "abci", "", 1e-3});
  EXPECT_TRUE(measured.measured_whole_step);
  const auto c = paradise_config(Kind::Data, 4, 64);
  const auto p = with_overhead(measured, c, 5e-3);
  EXPECT_EQ(p.epoch_step_overhead_s, 0);
  EXPECT_EQ(p.iteration_time_s, with_overhead(measured, c, 0).iteration_time_s);
  const std::string times = testing::TempDir() + "/oneconv_times.csv";
  std::ofstream(times) << "layer,forward_s,backward_s,batch\nc1,0.001,0.002,64\n";
  const auto per_layer = make_workload({path, kDataset, "abci", "", 0, times});
  EXPECT_TRUE(per_layer.measured_time);
  EXPECT_FALSE(per_layer.measured_whole_step);
  EXPECT_NEAR(with_overhead(per_layer, c, 5e-3).epoch_step_overhead_s, 16 * 5e-3, 1e-12);
  const auto net = make_workload(
      {std::string(PARADISE_TEST_DATA) + "/paradl/model/RESNET50_ImageNet_profall.net_sc", "",
       "abci", "", 0});
  EXPECT_TRUE(net.measured_whole_step);
  EXPECT_EQ(with_overhead(net, paradise_config(Kind::Data, 4, 256), 5e-3).epoch_step_overhead_s, 0);
  const auto roofline = written_model("oneconv", kModel, kDataset);
  EXPECT_FALSE(roofline.measured_time);
  EXPECT_FALSE(roofline.measured_whole_step);
}

// ParaDL's formulas have no implementation profile, so no step overhead.
TEST(StepOverhead, NoneUnderParadlsFormulas) {
  const auto w = written_model("oneconv", kModel, kDataset);
  auto c = paradise_config(Kind::Data, 4, 64);
  c.variant = Variant::Paradl;
  const auto p = with_overhead(w, c, 5e-3);
  EXPECT_EQ(p.epoch_step_overhead_s, 0);
  EXPECT_EQ(p.iteration_time_s, with_overhead(w, c, 0).iteration_time_s);
}

// The input pipeline prefetches behind the whole step, the framework's time included: a
// pipeline needing 1 ms less than the step with its 5 ms waits for nothing, and 4 ms per
// iteration where the step had none.
TEST(StepOverhead, InputPrefetchesBehindTheWholeStep) {
  auto w = written_model("oneconv", kModel, kDataset);
  const auto c = paradise_config(Kind::Serial, 1, 64);
  const double step = with_overhead(w, c, 5e-3).iteration_time_s;
  // the node's 64 raw samples on one core, in step - 1 ms
  w.sample_stored_bytes = 16 * 32 * 32 * 4;
  w.system.input.cpu_cores_per_node = 1;
  w.system.input.raw_Bps_per_core = 64 * w.sample_stored_bytes / (step - 1e-3);
  const auto fed = with_overhead(w, c, 5e-3);
  EXPECT_EQ(fed.epoch_input_s, 0);
  EXPECT_NEAR(fed.iteration_time_s, step, 1e-12);
  const auto bare = with_overhead(w, c, 0);
  EXPECT_NEAR(bare.epoch_input_s, 16 * 4e-3, 1e-9);
  EXPECT_EQ(bare.limit, Limit::Input);
  // a step the framework dominates still waits for a slower pipeline: input bounds it
  w.system.input.raw_Bps_per_core = 64 * w.sample_stored_bytes / 2;  // 2 s per batch
  EXPECT_EQ(with_overhead(w, c, 1).limit, Limit::Input);
}

}  // namespace
}  // namespace paradise::strategy
