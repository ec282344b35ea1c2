// Epochs to target (docs/time-to-train.md; McCandlish et al. 2018 for the form, MLPerf's
// reference convergence points for the built-in values).
#include "paradise/model/convergence.hpp"

#include <cmath>

#include "paradise/core/text.hpp"

namespace paradise::model {

// E(B) = E_min (1 + B / B_noise) (McCandlish et al. 2018, eq. 2.11 in epochs)
double Convergence::epochs(std::int64_t global_batch) const {
  if (noise_batch <= 0) return epochs_min;
  return epochs_min * (1 + static_cast<double>(global_batch) / noise_batch);
}

std::optional<Convergence> builtin_convergence(std::string_view model, std::string_view dataset) {
  // tools/fit-convergence on the fit rows of tests/data/measured/mlperf-convergence.csv
  if (model == "resnet50" && dataset == "imagenet")
    return Convergence{33.66, 44296,
                       "MLPerf Training ResNet-50 v1.5 reference convergence, 75.9% top-1 "
                       "(tools/fit-convergence)"};
  if (model == "mlperf_cosmoflow" && dataset == "cosmoflow")
    return Convergence{16.13, 812,
                       "MLPerf HPC CosmoFlow reference convergence (tools/fit-convergence)"};
  return std::nullopt;
}

Convergence parse_convergence(std::string_view text, const Origin& where, std::string_view key) {
  const std::string_view t = trim(text);
  const auto colon = t.find(':');
  Convergence c;
  c.epochs_min = parse_double(t.substr(0, colon), where, key);
  if (colon != std::string_view::npos)
    c.noise_batch = parse_double(t.substr(colon + 1), where, key);
  if (!(c.epochs_min > 0) || (colon != std::string_view::npos && !(c.noise_batch > 0)))
    fail_input(where, key, text,
               "expected E_MIN or E_MIN:NOISE_BATCH, epochs > 0 and a global batch > 0 "
               "(docs/time-to-train.md)");
  c.source = "given";
  return c;
}

}  // namespace paradise::model
