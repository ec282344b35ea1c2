// Alpha and beta from a size/time table by least squares of the algorithm's form, with the
// residual at every message size: does the Hockney form fit this machine?
#pragma once

#include <utility>
#include <vector>

#include "paradise/calibrate/measurements.hpp"

namespace paradise::calibrate {

/// t = a alpha + b beta for n bytes on p ranks: (a, b) of the form (docs/cost-model.md
/// §collectives).
std::pair<double, double> coefficients(Form f, std::int64_t p, double n);

struct Residual {
  double bytes = 0;
  double measured_s = 0;
  double fitted_s = 0;
  int line = 0;
  double relative() const { return (fitted_s - measured_s) / measured_s; }
};

struct Fit {
  Form form = Form::PointToPoint;
  std::int64_t ranks = 0;
  double alpha_s = 0;
  double beta_s_per_byte = 0;
  bool alpha_clamped = false;  ///< the free fit gave alpha < 0: refitted with alpha = 0
  bool beta_clamped = false;   ///< the free fit gave beta < 0: refitted with beta = 0
  std::vector<Residual> residuals;
  double rms_relative = 0;  ///< root mean square of the relative residuals
  double max_relative = 0;  ///< largest |relative residual|
};

/// Weighted least squares minimising sum ((a_i alpha + b_i beta - t_i) / t_i)^2, so that
/// small messages (alpha) count as much as large ones (beta); non-negative alpha and beta.
/// Needs two message sizes with positive times; throws InputError naming the file otherwise.
/// Refuses a table whose largest message is below kMinLargestMessageBytes (beta needs n beta
/// >> alpha) or that lists a size twice, naming the file, line and size.
Fit fit_alpha_beta(const Measurement& m);

/// The smallest largest-message of a table alpha and beta are fitted to: 1 MiB.
inline constexpr double kMinLargestMessageBytes = 1024.0 * 1024.0;

}  // namespace paradise::calibrate
