#include "paradise/calibrate/fit.hpp"

#include <cmath>

#include "paradise/core/error.hpp"

namespace paradise::calibrate {

std::pair<double, double> coefficients(Form f, std::int64_t p, double n) {
  const double q = static_cast<double>(p);
  switch (f) {
    case Form::Allreduce:  // ring: 2(p-1) alpha + 2(p-1)/p n beta (docs/cost-model.md §collectives)
      return {2 * (q - 1), 2 * (q - 1) / q * n};
    case Form::Allgather:  // ring: (p-1) alpha + (p-1)/p n beta (docs/cost-model.md §collectives)
    case Form::ReduceScatter:
      return {q - 1, (q - 1) / q * n};
    case Form::PointToPoint:  // Hockney: alpha + n beta
      return {1, n};
  }
  return {0, 0};
}

Fit fit_alpha_beta(const Measurement& m) {
  Fit fit;
  fit.form = m.form;
  fit.ranks = m.ranks;
  // Relative least squares: rows (a_i / t_i, b_i / t_i), target 1.
  double sxx = 0, sxy = 0, syy = 0, sx = 0, sy = 0;
  int used = 0;
  for (const auto& s : m.samples) {
    if (s.time_s <= 0) continue;
    const auto [a, b] = coefficients(m.form, m.ranks, s.bytes);
    const double x = a / s.time_s, y = b / s.time_s;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sx += x;
    sy += y;
    ++used;
  }
  const double det = sxx * syy - sxy * sxy;
  if (used < 2 || !(std::abs(det) > 1e-12 * sxx * syy))
    fail_input({m.file, 0}, "", "",
               "alpha and beta need at least two message sizes with times above 0");
  fit.alpha_s = (sx * syy - sy * sxy) / det;
  fit.beta_s_per_byte = (sy * sxx - sx * sxy) / det;
  if (fit.alpha_s < 0) {  // the best fit with alpha = 0: beta = sum y / sum y^2
    fit.alpha_clamped = true;
    fit.alpha_s = 0;
    fit.beta_s_per_byte = sy / syy;
  } else if (fit.beta_s_per_byte < 0) {
    fit.beta_clamped = true;
    fit.beta_s_per_byte = 0;
    fit.alpha_s = sx / sxx;
  }
  double sum2 = 0;
  for (const auto& s : m.samples) {
    const auto [a, b] = coefficients(m.form, m.ranks, s.bytes);
    Residual r{s.bytes, s.time_s, a * fit.alpha_s + b * fit.beta_s_per_byte, s.line};
    if (s.time_s > 0) {
      sum2 += r.relative() * r.relative();
      fit.max_relative = std::max(fit.max_relative, std::abs(r.relative()));
    }
    fit.residuals.push_back(r);
  }
  fit.rms_relative = std::sqrt(sum2 / used);
  return fit;
}

}  // namespace paradise::calibrate
