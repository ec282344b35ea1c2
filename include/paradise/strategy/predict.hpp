// The oracle: one prediction per (workload, configuration).
#pragma once

#include <string>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

Prediction predict(const Workload& w, const Config& c);

/// The same into `out`, reusing its storage, with the workload's sums computed once by
/// sum_layers(w): the sweep's allocation-free hot path.
void predict_into(const Workload& w, const LayerSums& sums, const Config& c, Prediction& out);

/// Where a configuration's compute times come from, for people: the workload's source, or
/// the paradise variant's roofline (alone, or scaled to the measured times).
std::string compute_source(const Workload& w, const Config& c);

}  // namespace paradise::strategy
