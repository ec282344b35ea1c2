// The GEMM efficiency curve fit of `paradise calibrate --profile`: per-layer times
// synthesised from a known curve with the roofline written out by hand here (not through
// strategy::roofline_layer_s) must give the curve back; noise, one batch size, layers faster
// than the peak and profiles without GEMMs behave as documented; and the system's curve is
// what predict uses.
#include "paradise/calibrate/roofline_fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "paradise/core/error.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::calibrate {
namespace {

// docs/cost-model.md §roofline, for fp32: max(FLOPs / (peak x e g(M) g(N) g(K)), bytes / BW)
// with g(x) = x / (x + h); M = n x output positions, N = filters, K = MACs per output;
// bytes = 4 x (3 (read + written) n + 3 params) at the bandwidth a streaming kernel reaches.
double hand_roofline(const system::Gpu& g, const model::LayerStats& l, double n, double e,
                     double h) {
  const double bytes = 4 * (3 * static_cast<double>(l.read_elements + l.written_elements) * n +
                            3 * static_cast<double>(l.params));
  double compute = 0;
  if (l.macs > 0) {
    const double out = static_cast<double>(l.output_elements);
    const auto f = static_cast<double>(l.output.channels);
    const double m = n * out / f, k = static_cast<double>(l.macs) / out;
    const double eff = e * m / (m + h) * f / (f + h) * k / (k + h);
    compute = (l.forward_flops + l.backward_data_flops + l.backward_weight_flops) * n /
              (g.peak_fp32_flops * eff);
  }
  return std::max(compute, bytes / (g.memory_bandwidth_Bps * g.memory_bandwidth_efficiency));
}

struct Synthetic {
  strategy::Workload w;
  std::vector<LayerObservation> obs;
};

// ResNet-50 on ABCI's V100, every layer at every batch, times from (e, h), the 3x3 stride-1
// convolutions' from (e3, h) where e3 > 0; `noise` scales each time by 1 + noise x u, u in
// [-1, 1] from a fixed linear congruential sequence.
Synthetic synthesise(const std::vector<std::int64_t>& batches, double e, double h, double noise = 0,
                     double e3 = 0) {
  Synthetic s{strategy::make_workload({"resnet50", "imagenet", "abci", "", 0}), {}};
  std::uint64_t state = 12345;
  for (const auto b : batches) {
    for (const auto& l : s.w.model.layers) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const double u = static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;
      const double t = hand_roofline(s.w.system.gpu, l, static_cast<double>(b),
                                     l.conv3x3_stride1 && e3 > 0 ? e3 : e, h);
      if (t > 0) s.obs.push_back({&l, b, t * (1 + noise * u)});
    }
  }
  return s;
}

TEST(RooflineFit, ExactTimesGiveTheCurveBack) {
  const Synthetic s = synthesise({8, 32, 128}, 0.55, 48);
  const RooflineFit f = fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 32});
  EXPECT_NEAR(f.curve.efficiency_max, 0.55, 1e-4 * 0.55);
  EXPECT_NEAR(f.curve.half_dim, 48, 1e-3 * 48);
  EXPECT_FALSE(f.half_dim_fixed);
  EXPECT_FALSE(f.efficiency_clamped);
  EXPECT_LT(f.rms_relative, 1e-4);
  ASSERT_EQ(f.batches.size(), 3u);
  for (const auto& b : f.batches) {
    // each batch predicted from the two others alone
    EXPECT_NEAR(b.held_out_s, b.measured_s, 1e-4 * b.measured_s) << b.batch;
    EXPECT_NEAR(b.fitted_s, b.measured_s, 1e-4 * b.measured_s) << b.batch;
  }
}

// cuDNN's Winograd 3x3 convolutions beat the peak in direct FLOPs (docs/gpu-profiles.md
// §conv3x3): their e_max is fitted apart, above 1, with the others' curve; a profile without
// them, or of them alone, fits one curve
TEST(RooflineFit, ThreeByThreeConvolutionsGetTheirOwnMaximum) {
  const Synthetic s = synthesise({8, 32, 128}, 0.55, 48, 0, 1.6);
  const RooflineFit f = fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 32});
  EXPECT_NEAR(f.curve.efficiency_max, 0.55, 1e-4 * 0.55);
  EXPECT_NEAR(f.curve.half_dim, 48, 1e-3 * 48);
  EXPECT_NEAR(f.conv3x3_efficiency_max, 1.6, 1e-4 * 1.6);
  EXPECT_EQ(f.precision_index, 0u);
  EXPECT_LT(f.rms_relative, 1e-4);
  for (const auto& b : f.batches) EXPECT_NEAR(b.held_out_s, b.measured_s, 1e-4 * b.measured_s);
  std::vector<LayerObservation> others;
  for (const auto& o : s.obs)
    if (!o.layer->conv3x3_stride1) others.push_back(o);
  ASSERT_LT(others.size(), s.obs.size());
  const RooflineFit g =
      fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, others, {0.8, 32});
  EXPECT_EQ(g.conv3x3_efficiency_max, 0);
  EXPECT_NEAR(g.curve.efficiency_max, 0.55, 1e-4 * 0.55);
}

TEST(RooflineFit, FivePercentNoiseStillCarriesToUnseenBatches) {
  const Synthetic s = synthesise({8, 32, 128}, 0.55, 48, 0.05);
  const RooflineFit f = fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 32});
  EXPECT_NEAR(f.curve.efficiency_max, 0.55, 0.02 * 0.55);
  EXPECT_NEAR(f.curve.half_dim, 48, 0.05 * 48);
  // the noise shows in the residuals: uniform on +-5% has rms 0.05 / sqrt(3) = 2.89%
  EXPECT_NEAR(f.rms_relative, 0.05 / std::sqrt(3.0), 0.005);
  // per-batch sums of ~160 layers average the noise out
  for (const auto& b : f.batches) EXPECT_NEAR(b.held_out_s, b.measured_s, 0.01 * b.measured_s);
}

TEST(RooflineFit, OneBatchSizeKeepsTheHalfDimensionAndFitsTheMaximum) {
  const Synthetic s = synthesise({32}, 0.4, 48);
  const RooflineFit f = fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 48});
  EXPECT_TRUE(f.half_dim_fixed);
  EXPECT_EQ(f.curve.half_dim, 48);  // h is not identifiable from one batch size
  EXPECT_NEAR(f.curve.efficiency_max, 0.4, 1e-4 * 0.4);
  ASSERT_EQ(f.batches.size(), 1u);
  EXPECT_EQ(f.batches[0].held_out_s, 0);  // nothing left to predict it from
}

TEST(RooflineFit, LayersFasterThanThePeakClampTheMaximumAtOne) {
  // times of e = 1.5: the system's peak is 1.5x too low
  const Synthetic s = synthesise({16, 64}, 1.5, 32);
  const RooflineFit f = fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 32});
  EXPECT_TRUE(f.efficiency_clamped);
  EXPECT_EQ(f.curve.efficiency_max, 1);
}

TEST(RooflineFit, AProfileWithoutGemmLayersIsAnError) {
  Synthetic s = synthesise({8}, 0.5, 32);
  std::erase_if(s.obs, [](const LayerObservation& o) { return o.layer->macs > 0; });
  ASSERT_FALSE(s.obs.empty());  // pooling, batch norm, ReLU remain
  EXPECT_THROW(fit_gemm_curve(s.w.system.gpu, strategy::Precision::Fp32, s.obs, {0.8, 32}),
               InputError);
}

TEST(RooflineFit, PredictUsesTheSystemsCurve) {
  // with an unbounded memory bandwidth every layer is compute-bound, so halving e_max
  // doubles the roofline compute exactly (1 GPU, no measured times)
  strategy::Workload w = strategy::make_workload({"resnet50", "imagenet", "abci", "", 0});
  w.system.gpu.memory_bandwidth_Bps = 1e30;
  // the system's one curve: no per-class fit over it, no launch floor under it
  w.system.gpu.class_efficiency_max = {};
  w.system.gpu.kernel_launch_s = 0;
  strategy::Config c;
  c.kind = strategy::Kind::Data;
  c.gpus = 1;
  c.batch = 64;
  c.variant = strategy::Variant::Paradise;
  w.system.gpu.gemm_efficiency_max = 0.8;
  const double fast = strategy::predict(w, c).epoch_compute_s;
  w.system.gpu.gemm_efficiency_max = 0.4;
  EXPECT_NEAR(strategy::predict(w, c).epoch_compute_s, 2 * fast, 1e-12 * fast);
}

}  // namespace
}  // namespace paradise::calibrate
