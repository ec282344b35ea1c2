// Calibrating an implementation profile from measured runs (`paradise calibrate --measured
// RUNS.csv --implementation BASE`; docs/implementations.md §calibrate): the profile's few
// physical parameters fitted to the runs' times, and to their compute and communication parts
// where the rows give them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "paradise/implementation/profile.hpp"
#include "paradise/validate/validate.hpp"

namespace paradise::validate {

/// How the rows decide a fitted parameter's value.
enum class Decided {
  Fitted,   ///< the rows' best fit
  Kept,     ///< no row moves with it (or, for a limit, none reaches it): the base's value
  AtLeast,  ///< a limit the rows bound from below only: the least value no row waits for
};

/// A fitted parameter: what it is, its bounds, its value, and how the rows decide it.
struct FittedParameter {
  std::string name, unit;
  double lo = 0, hi = 0, value = 0;
  Decided decided = Decided::Kept;
};

struct ImplementationFit {
  implementation::Implementation profile;  ///< the base with the fitted values
  std::vector<FittedParameter> parameters;
  std::vector<RowResult> rows;  ///< every row under the fitted profile
  /// Per row: its projection by a profile fitted without the rows of its GPU count (leave
  /// one GPU count out); empty where that leaves nothing to fit on.
  std::vector<std::optional<double>> held_out_s;
  std::optional<double> mean_accuracy, held_out_mean_accuracy;
};

/// Fits `base`'s per-call overhead of layer exchanges (filter, channel), of the spatial
/// exchanges (halos and the gather after the split), its staging rate and its split-layer
/// efficiency to `runs` under the paradise variant: least squares of log(projected /
/// measured) over every row's time and its measured parts, each parameter within physical
/// bounds. InputError for a row that names another implementation or cannot be predicted.
ImplementationFit fit_implementation(const std::vector<MeasuredRun>& runs,
                                     const implementation::Implementation& base,
                                     const std::string& fitted_name);

}  // namespace paradise::validate
