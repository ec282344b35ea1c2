// The oracle: one prediction per (workload, configuration).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "paradise/strategy/compute_memo.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {

/// `memo`: a memo of the paradise variant's compute for this workload (a sweep's evaluator
/// owns one per workload), or null. Changing Config::policies between calls with the same
/// memo is not supported.
Prediction predict(const Workload& w, const Config& c, ComputeMemo* memo);
Prediction predict(const Workload& w, const Config& c);

/// The same into `out`, reusing its storage, with the workload's sums computed once by
/// sum_layers(w): the sweep's allocation-free hot path.
void predict_into(const Workload& w, const LayerSums& sums, const Config& c, Prediction& out,
                  ComputeMemo* memo);
void predict_into(const Workload& w, const LayerSums& sums, const Config& c, Prediction& out);

/// The group sizes p2 = auto tries on `gpus` GPUs: every divisor from 2 (a group of one is
/// data parallelism) to `gpus` (one group), ascending; {1} on one GPU.
std::vector<std::int64_t> searched_group_sizes(std::int64_t gpus);

/// Where a configuration's compute times come from, for people: the workload's source, or
/// the paradise variant's roofline (alone, or scaled to the measured times).
std::string compute_source(const Workload& w, const Config& c);

}  // namespace paradise::strategy
