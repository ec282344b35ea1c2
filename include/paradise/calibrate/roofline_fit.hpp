// The GEMM efficiency curve (e_max, h) of the paradise variant's roofline fitted to measured
// per-layer times, with the fit quality per layer and per batch, and each batch predicted by
// a fit that did not see it (how well the curve carries to batch sizes not measured).
#pragma once

#include <cstdint>
#include <vector>

#include "paradise/model/stats.hpp"
#include "paradise/strategy/roofline.hpp"

namespace paradise::calibrate {

/// One layer measured at one batch: its forward + backward seconds for the whole batch.
struct LayerObservation {
  const model::LayerStats* layer = nullptr;
  std::int64_t batch = 0;
  double measured_s = 0;
};

struct BatchCheck {
  std::int64_t batch = 0;
  double measured_s = 0;  ///< sum over the observed layers
  double fitted_s = 0;    ///< the same layers under the curve fitted to every batch
  double held_out_s = 0;  ///< under a curve fitted without this batch; 0: no other batch
};

struct RooflineFit {
  strategy::GemmCurve curve;
  /// The 3x3 stride-1 convolutions' e_max, fitted apart with the curve's h where the profile
  /// has them beside other GEMM layers (docs/gpu-profiles.md §conv3x3); 0: not apart.
  double conv3x3_efficiency_max = 0;
  /// The precision index (system::kPrecisionKeyNames) whose units ran the profile's layers.
  std::size_t precision_index = 0;
  bool half_dim_fixed = false;      ///< one batch size only: h kept, e_max fitted
  bool efficiency_clamped = false;  ///< the free fit wanted e_max > 1 (peak set too low)
  std::size_t gemm_layers = 0;      ///< observations with a GEMM (the fitted ones)
  double rms_relative = 0;          ///< per-layer rms of (fitted - measured) / measured
  std::vector<double> fitted_s;     ///< per observation
  std::vector<BatchCheck> batches;  ///< ascending batch
};

/// Least squares of log time over the observations of layers with a GEMM (a layer's
/// factor-of-two error counts the same at every size); e_max in (0, 1], h in [0, 65536];
/// the 3x3 stride-1 convolutions' e_max apart, in (0, 4], where there are others too.
/// `start`: the h kept when only one batch size is given. Throws InputError when no
/// observation has a GEMM layer with a positive time.
RooflineFit fit_gemm_curve(const system::Gpu& gpu, strategy::Precision precision,
                           const std::vector<LayerObservation>& observations,
                           strategy::GemmCurve start);

}  // namespace paradise::calibrate
