#include "paradise/calibrate/fit.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

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

namespace {

std::string bytes_text(double n) {
  std::ostringstream t;
  t << std::fixed << std::setprecision(0) << n;
  return t.str();
}

// A size listed twice (OSU output of two runs in one file, every size twice) is not one
// measurement: the fit would weigh two runs as one, so it is refused with both lines.
void refuse_repeated_sizes(const Measurement& m) {
  std::map<double, int> line_of_size;
  for (const auto& s : m.samples) {
    const auto [it, first] = line_of_size.emplace(s.bytes, s.line);
    if (!first)
      fail_input({m.file, s.line}, "size", bytes_text(s.bytes),
                 "listed twice (lines " + std::to_string(it->second) + " and " +
                     std::to_string(s.line) + "): give one run per file");
  }
}

// Beta is the time per byte where the bandwidth term outweighs the latency (Hockney 1994,
// t = alpha + n beta: n beta >> alpha): a table that stops at small messages fits any beta
// (128 B at most gave 203 GB/s at rms 0.00%). 1 MiB takes 10 us at 100 GB/s, above the few
// microseconds of a collective's alpha; nccl-tests and OSU go past it by default.
void refuse_small_messages_only(const Measurement& m) {
  double largest = 0;
  for (const auto& s : m.samples) largest = std::max(largest, s.bytes);
  if (largest < kMinLargestMessageBytes)
    fail_input({m.file, 0}, "size", bytes_text(largest),
               "the largest message is below " + bytes_text(kMinLargestMessageBytes) +
                   " bytes (1 MiB): the bandwidth beta cannot be fitted where latency dominates "
                   "(rerun up to 1 MiB or more: nccl-tests -e 128M, OSU -m 4194304)");
}

}  // namespace

Fit fit_alpha_beta(const Measurement& m) {
  refuse_repeated_sizes(m);
  refuse_small_messages_only(m);
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
