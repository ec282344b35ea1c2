// `paradise predict`'s output: one configuration's prediction as a table (with the time and
// memory breakdowns), JSON or CSV (one header line and one row).
#pragma once

#include <optional>
#include <ostream>

#include "paradise/input/workload.hpp"
#include "paradise/model/convergence.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::report {

/// The epochs to target, when known, turn the epoch into time to train (every format says
/// the epochs used, or that none were given).
using Epochs = std::optional<model::Convergence>;

void print_prediction_table(std::ostream& out, const strategy::Prediction& p,
                            const strategy::Config& c, const strategy::Workload& w,
                            const Epochs& epochs);
/// JSON of one prediction; `asked` names the model, dataset and system as given.
void print_prediction_json(std::ostream& out, const strategy::Prediction& p,
                           const strategy::Config& c, const strategy::Workload& w,
                           const input::WorkloadSpec& asked, const Epochs& epochs);
void print_prediction_csv(std::ostream& out, const strategy::Prediction& p,
                          const strategy::Config& c, const strategy::Workload& w,
                          const Epochs& epochs);

}  // namespace paradise::report
