// The default precision (issue 36, point 5): what PyTorch runs when the user sets nothing.
// PyTorch keeps fp32 storage and lets cuDNN run convolutions in TF32 on GPUs that have TF32
// units (torch.backends.cudnn.allow_tf32 is True by default since 1.7, "TensorFloat-32 (TF32)
// on Ampere (and later) devices" in PyTorch's CUDA semantics notes); a V100 has none.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "paradise/strategy/predict.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/sweep/evaluator.hpp"

namespace paradise::strategy {
namespace {

// Per the datasheets the catalogue cites: A100 and H200 have TF32 tensor cores, V100 (ABCI)
// has none, so PyTorch's default runs in TF32 on the first two and in FP32 on the third.
TEST(DefaultPrecision, IsTf32WhereTheGpuHasTf32UnitsElseFp32) {
  EXPECT_EQ(default_precision(make_workload({"resnet50", "imagenet", "dgx-a100", "", 0})),
            Precision::Tf32);
  EXPECT_EQ(default_precision(make_workload({"resnet50", "imagenet", "dgx-h200", "", 0})),
            Precision::Tf32);
  EXPECT_EQ(default_precision(make_workload({"resnet50", "imagenet", "abci", "", 0})),
            Precision::Fp32);
}

// Measured layer times fix the precision: they time only the run they were measured in.
TEST(DefaultPrecision, IsTheMeasuredOneWithLayerTimes) {
  const std::string model = testing::TempDir() + "/tiny_default.model";
  std::ofstream(model) << "model tiny\ninput 3x8x8\nc1 conv out=4 k=3 p=1\nflat flatten\n"
                          "fc dense out=2\nloss softmax_ce\n";
  const std::string times = testing::TempDir() + "/tiny_default_times.csv";
  std::ofstream(times) << "layer,forward_s,backward_s,batch,precision\n"
                          "c1,0.001,0.002,8,mixed\nfc,0.0001,0.0002,8,mixed\n";
  const auto w = make_workload({model, "tiny:64:3x8x8", "dgx-a100", "", 0, times});
  EXPECT_EQ(default_precision(w), Precision::Mixed);
}

// The sweep resolves the default per system: on a grid of ABCI and a DGX A100 each point is
// the prediction at that system's precision given explicitly, and the file says which.
TEST(DefaultPrecision, ASweepTakesEachSystemsDefault) {
  sweep::SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data"};
  s.gpus = {8};
  s.batch = {256};
  s.variant = Variant::Paradise;
  const sweep::Evaluator e(s);
  EXPECT_EQ(e.default_precision_text(), "fp32 on abci, tf32 on dgx-a100");
  const Precision expected[] = {Precision::Fp32, Precision::Tf32};
  for (std::uint64_t i = 0; i < 2; ++i) {
    Config c;
    c.variant = Variant::Paradise;
    c.kind = Kind::Data;
    c.gpus = 8;
    c.batch = 256;
    c.precision = expected[i];
    const auto direct = predict(make_workload({"resnet50", "imagenet", s.systems[i], "", 0}), c);
    EXPECT_EQ(e.evaluate(i).epoch_time_s, direct.epoch_time_s) << s.systems[i];
    EXPECT_EQ(e.point(i).config.precision, expected[i]) << s.systems[i];
  }
  // TF32 is faster than FP32 on the A100: the default there is not strict fp32
  Config fp32;
  fp32.variant = Variant::Paradise;
  fp32.kind = Kind::Data;
  fp32.gpus = 8;
  fp32.batch = 256;
  EXPECT_LT(e.evaluate(1).epoch_time_s,
            predict(make_workload({"resnet50", "imagenet", "dgx-a100", "", 0}), fp32).epoch_time_s);
  // strict fp32 stays selectable, and then nothing is defaulted
  s.precisions = {Precision::Fp32};
  EXPECT_EQ(sweep::Evaluator(s).default_precision_text(), "");
  EXPECT_EQ(sweep::Evaluator(s).evaluate(1).epoch_time_s,
            predict(make_workload({"resnet50", "imagenet", "dgx-a100", "", 0}), fp32).epoch_time_s);
}

// ParaDL's variant models fp32 alone: nothing is defaulted there.
TEST(DefaultPrecision, TheParadlVariantStaysFp32) {
  sweep::SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"dgx-a100"};
  s.strategies = {"data"};
  s.gpus = {8};
  s.batch = {256};
  const sweep::Evaluator e(s);
  EXPECT_EQ(e.default_precision_text(), "");
  EXPECT_EQ(e.point(0).config.precision, Precision::Fp32);
  EXPECT_FALSE(sweep::one_valued_settings(s).precision_by_default);
}

}  // namespace
}  // namespace paradise::strategy
