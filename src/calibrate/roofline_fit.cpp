#include "paradise/calibrate/roofline_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "paradise/core/error.hpp"
#include "paradise/system/system.hpp"

namespace paradise::calibrate {
namespace {

using strategy::GemmCurve;

// The 3x3 stride-1 convolutions (cuDNN's Winograd ones) take their own e_max when it is fitted
// apart (> 0); docs/gpu-profiles.md §conv3x3
GemmCurve curve_of(const LayerObservation& o, GemmCurve c, double conv3x3_e_max) {
  if (o.layer->conv3x3_stride1 && conv3x3_e_max > 0) c.efficiency_max = conv3x3_e_max;
  return c;
}

double predicted_s(const system::Gpu& g, strategy::Precision p, const LayerObservation& o,
                   GemmCurve c, double conv3x3_e_max = 0) {
  return strategy::roofline_layer_s(g, p, *o.layer, static_cast<double>(o.batch), 1,
                                    strategy::GemmSplit::Samples, curve_of(o, c, conv3x3_e_max));
}

bool fitted(const LayerObservation& o) {
  return o.measured_s > 0 && o.layer->macs > 0;
}

/// sum (log predicted - log measured)^2 over the GEMM layers
double loss(const system::Gpu& g, strategy::Precision p, const std::vector<LayerObservation>& obs,
            GemmCurve c) {
  double sum = 0;
  for (const auto& o : obs) {
    if (!fitted(o)) continue;
    const double r = std::log(predicted_s(g, p, o, c) / o.measured_s);
    sum += r * r;
  }
  return sum;
}

struct Search {
  GemmCurve curve;
  bool clamped = false;
};

// Coarse grid over log e_max x log(1 + h), then a pattern search that halves its steps:
// two parameters and a few hundred layers, so exhaustive enough and fast (< 10 ms). e_max
// at most `most` (1, or 4 for the 3x3 convolutions: system::most_efficiency_max).
Search search(const system::Gpu& g, strategy::Precision p, const std::vector<LayerObservation>& obs,
              GemmCurve start, bool fix_h, double most = 1) {
  constexpr double kLogEMin = -9.21, kLogHMax = 11.09;  // e_max >= 1e-4, h <= 65536
  const double log_most = std::log(most);
  const auto curve = [&](double le, double lh) {
    return GemmCurve{std::exp(le), fix_h ? start.half_dim : std::expm1(lh)};
  };
  const double lh0 = std::log1p(start.half_dim);
  double best_le = 0, best_lh = lh0, best = INFINITY;
  for (int i = 0; i <= 92; ++i) {
    const double le = kLogEMin + (log_most - kLogEMin) * i / 92.0;
    for (int j = 0; j <= (fix_h ? 0 : 56); ++j) {
      const double lh = fix_h ? lh0 : kLogHMax * j / 56.0;
      const double v = loss(g, p, obs, curve(le, lh));
      if (v < best) best = v, best_le = le, best_lh = lh;
    }
  }
  double step_e = 0.1, step_h = fix_h ? 0 : 0.2;
  while (step_e > 1e-9) {
    bool moved = false;
    const std::array<std::pair<double, double>, 4> moves{
        {{step_e, 0.0}, {-step_e, 0.0}, {0.0, step_h}, {0.0, -step_h}}};
    for (const auto& [de, dh] : moves) {
      const double le = std::min(log_most, std::max(kLogEMin, best_le + de));
      const double lh = std::min(kLogHMax, std::max(0.0, best_lh + dh));
      const double v = loss(g, p, obs, curve(le, lh));
      if (v < best) best = v, best_le = le, best_lh = lh, moved = true;
    }
    if (!moved) step_e /= 2, step_h /= 2;
  }
  return {curve(best_le, best_lh), best_le >= log_most - 1e-9};
}

struct Curves {
  Search others;             ///< every GEMM layer's, or the layers' but the 3x3 ones'
  double conv3x3_e_max = 0;  ///< the 3x3 convolutions' e_max at that h; 0: not apart
};

// The curve, and the 3x3 convolutions' e_max apart where the profile has both kinds of GEMM
// layer: (e_max, h) on the others, then their e_max with that h (per-layer times tell the two
// apart, as the fit rows do for tools/fit-gpu-profiles)
Curves fit_curves(const system::Gpu& g, strategy::Precision p,
                  const std::vector<LayerObservation>& obs, GemmCurve start, bool fix_h) {
  std::vector<LayerObservation> threes, others;
  for (const auto& o : obs) (o.layer->conv3x3_stride1 ? threes : others).push_back(o);
  const auto any_fitted = [](const std::vector<LayerObservation>& v) {
    return std::any_of(v.begin(), v.end(), fitted);
  };
  if (!any_fitted(threes) || !any_fitted(others)) return {search(g, p, obs, start, fix_h), 0};
  Curves c{search(g, p, others, start, fix_h), 0};
  c.conv3x3_e_max = search(g, p, threes, c.others.curve, true,
                           system::most_efficiency_max(system::GemmClass::Conv3x3))
                        .curve.efficiency_max;
  return c;
}

}  // namespace

RooflineFit fit_gemm_curve(const system::Gpu& gpu, strategy::Precision precision,
                           const std::vector<LayerObservation>& observations, GemmCurve start) {
  std::set<std::int64_t> sizes;
  std::size_t gemm = 0;
  for (const auto& o : observations) {
    if (!fitted(o)) continue;
    ++gemm;
    sizes.insert(o.batch);
  }
  if (gemm == 0)
    throw InputError("no layer with a GEMM (convolution or linear) has a measured time > 0");
  RooflineFit f;
  f.gemm_layers = gemm;
  f.half_dim_fixed = sizes.size() < 2;
  const Curves all = fit_curves(gpu, precision, observations, start, f.half_dim_fixed);
  f.curve = all.others.curve;
  f.conv3x3_efficiency_max = all.conv3x3_e_max;
  f.precision_index = static_cast<std::size_t>(strategy::running_precision(gpu, precision));
  f.efficiency_clamped = all.others.clamped;
  double sq = 0;
  std::map<std::int64_t, BatchCheck> per_batch;
  for (const auto& o : observations) {
    const double t = predicted_s(gpu, precision, o, f.curve, f.conv3x3_efficiency_max);
    f.fitted_s.push_back(t);
    if (o.measured_s <= 0) continue;
    if (fitted(o)) sq += std::pow((t - o.measured_s) / o.measured_s, 2);
    auto& b = per_batch[o.batch];
    b.batch = o.batch;
    b.measured_s += o.measured_s;
    b.fitted_s += t;
  }
  f.rms_relative = std::sqrt(sq / static_cast<double>(gemm));
  for (auto& [batch, check] : per_batch) {
    std::vector<LayerObservation> others;
    std::set<std::int64_t> other_sizes;
    for (const auto& o : observations) {
      if (o.batch == batch) continue;
      others.push_back(o);
      if (fitted(o)) other_sizes.insert(o.batch);
    }
    if (other_sizes.empty()) {
      f.batches.push_back(check);
      continue;
    }
    const Curves c = fit_curves(gpu, precision, others, start, other_sizes.size() < 2);
    for (const auto& o : observations)
      if (o.batch == batch && o.measured_s > 0)
        check.held_out_s += predicted_s(gpu, precision, o, c.others.curve, c.conv3x3_e_max);
    f.batches.push_back(check);
  }
  return f;
}

}  // namespace paradise::calibrate
