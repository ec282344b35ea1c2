// The framework's time per training step (implementation::Profile::step_overhead_s,
// docs/gpu-profiles.md §step-overhead): added once to every iteration of the extended model
// whose compute is not a measured time per whole step, never to ParaDL's.
#include <gtest/gtest.h>

#include <fstream>

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

// The built-in profiles carry the fitted value; the default is pytorch-nccl's.
TEST(StepOverhead, BuiltinsCarryTheFittedValue) {
  for (const auto& i : implementation::builtin_implementations())
    EXPECT_EQ(i.profile.step_overhead_s, implementation::kFittedStepOverhead_s) << i.name;
  const auto w = written_model("oneconv", kModel, kDataset);
  EXPECT_NEAR(predict(w, paradise_config(Kind::Data, 4, 64)).epoch_step_overhead_s,
              16 * implementation::kFittedStepOverhead_s, 1e-12);
}

// A measured time per sample of whole steps holds the framework's time already (ParaDL's
// t_sample, calibrate's throughput): nothing is added. Per-layer times do not hold it.
TEST(StepOverhead, NotAddedToAMeasuredTimePerWholeStep) {
  const std::string path = testing::TempDir() + "/oneconv.model";
  std::ofstream(path) << kModel;
  const auto measured = make_workload({path, kDataset, "abci", "", 1e-3});
  EXPECT_TRUE(measured.measured_whole_step);
  const auto c = paradise_config(Kind::Data, 4, 64);
  const auto p = with_overhead(measured, c, 5e-3);
  EXPECT_EQ(p.epoch_step_overhead_s, 0);
  EXPECT_EQ(p.iteration_time_s, with_overhead(measured, c, 0).iteration_time_s);
  auto per_layer = measured;  // the same times, as per-layer measurements
  per_layer.measured_whole_step = false;
  EXPECT_NEAR(with_overhead(per_layer, c, 5e-3).epoch_step_overhead_s, 16 * 5e-3, 1e-12);
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
}

}  // namespace
}  // namespace paradise::strategy
