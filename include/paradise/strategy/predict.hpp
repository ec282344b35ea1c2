// The oracle: one prediction per (workload, configuration).
#pragma once

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

Prediction predict(const Workload& w, const Config& c);

}  // namespace paradise::strategy
