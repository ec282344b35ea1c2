// Epochs to train a model to its target accuracy as a function of the global batch: what
// turns time per epoch into time to train (docs/time-to-train.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "paradise/core/error.hpp"

namespace paradise::model {

/// epochs(B) = epochs_min x (1 + B / noise_batch) (McCandlish et al. 2018, the trade-off of
/// steps and examples; noise_batch 0: the same epochs at every batch).
struct Convergence {
  double epochs_min = 0;   ///< epochs at a batch far below the noise scale (> 0)
  double noise_batch = 0;  ///< the global batch at which the epochs double; 0: none
  std::string source;      ///< where the values come from, for every output
  double epochs(std::int64_t global_batch) const;
};

/// The built-in model for a zoo model on a built-in dataset (fitted by tools/fit-convergence
/// to MLPerf's reference convergence points), or nullopt.
std::optional<Convergence> builtin_convergence(std::string_view model, std::string_view dataset);

/// "E_MIN" or "E_MIN:NOISE_BATCH" (epochs > 0, a batch > 0), as given at `where` under
/// `key`; throws InputError naming them.
Convergence parse_convergence(std::string_view text, const Origin& where, std::string_view key);

}  // namespace paradise::model
