// `paradise recommend`'s search: every strategy at every GPU count and batch, predicted from
// one workload, ranked by an objective; why each strategy left out of the top K lost, from
// its own predictions; and, when nothing fits, which change of the settings would.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/model/convergence.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::recommend {

/// What the ranking minimises: epoch time, GPU-hours per epoch, memory per GPU (the most
/// free device memory first), or the time and GPU-hours to train (epochs to target x epoch).
enum class Objective : std::uint8_t {
  Time,
  GpuHours,
  MemoryHeadroom,
  TimeToTrain,
  GpuHoursToTrain
};
std::string_view objective_name(Objective o);
std::optional<Objective> objective_from_name(std::string_view name);

/// One evaluated configuration: the scalars of its prediction (the reason only when not ok).
struct Eval {
  strategy::Kind kind = strategy::Kind::Data;
  std::size_t kind_index = 0;  ///< position in the evaluated strategies (ties)
  std::int64_t gpus = 0, batch = 0;
  strategy::Status status = strategy::Status::Ok;
  strategy::Limit limit = strategy::Limit::None;
  double epoch_s = 0, compute_s = 0, communication_s = 0, memory_bytes = 0;
  std::string reason;
  int split_layer = -1;                              ///< spatial strategies: the last split layer
  std::array<std::int64_t, 3> split_parts{1, 1, 1};  ///< and its parts along W, H, D
  double epochs_to_target = 0;                       ///< at this batch; 0: not known
  /// The group size and micro-batches used (given, default or auto's choice); 0: none.
  std::int64_t p2 = 0, segments = 0;
  /// The implementation's framework time per step over the epoch (strategy::Prediction's
  /// epoch_step_overhead_s).
  double step_overhead_s = 0;
  /// The wait for input beyond the step over the epoch (strategy::Prediction's
  /// epoch_input_s): a node's pipeline or an implementation's loading rank.
  double input_s = 0;
  /// GPU-hours of one epoch: epoch time x GPUs.
  double gpu_hours() const { return epoch_s * static_cast<double>(gpus) / 3600; }
  /// Seconds to train: the epochs to target x the epoch.
  double time_to_train_s() const { return epoch_s * epochs_to_target; }
};

/// Ranks feasible configurations: the objective, then epoch time, then fewer GPUs, then the
/// smaller batch, then the strategies' order (a total order: the output is reproducible).
struct Ranking {
  Objective objective = Objective::Time;
  /// The objective's value, smaller is better (memory headroom: the memory used).
  double score(const Eval& e) const;
  bool operator()(const Eval& a, const Eval& b) const;
};

/// 1, 2, 4, ... up to `max`, plus `max` itself when it is not a power of two.
std::vector<std::int64_t> gpu_counts(std::int64_t max);
/// lo, hi and the powers of two between them, ascending.
std::vector<std::int64_t> batch_values(std::int64_t lo, std::int64_t hi);

/// What is searched: the strategies (their order breaks ties), GPU counts and batches.
struct Search {
  std::vector<strategy::Kind> kinds;
  std::vector<std::int64_t> counts, batches;
  Objective objective = Objective::Time;
  std::size_t top = 10;  ///< configurations ranked
  /// The epochs to target (the to-train objectives need them; every output states them).
  std::optional<model::Convergence> epochs{};
  /// Whether strategy `k` is evaluated on `gpus`: on 1 GPU every strategy is serial, so the
  /// others from 2 GPUs, unless serial is left out.
  bool evaluated(strategy::Kind k, std::int64_t gpus) const;
};

/// Every strategy x GPU count x `batches` of `s` under the settings `base` (strategy, GPUs
/// and batch replaced), strategies outermost.
std::vector<Eval> evaluate(const strategy::Workload& w, const strategy::LayerSums& sums,
                           strategy::Config base, const Search& s,
                           const std::vector<std::int64_t>& batches);

/// A change of the settings tried when nothing fits, and what it gives.
struct Change {
  std::string options;  ///< as written on the command line
  std::size_t feasible = 0;
  std::optional<Eval> best;  ///< by the objective
};

/// A strategy not in the top K, and why.
struct Loser {
  strategy::Kind kind = strategy::Kind::Data;
  std::string reason;
};

struct Recommendation {
  std::vector<Eval> evals;          ///< every configuration evaluated, as evaluate() orders them
  std::vector<std::size_t> ranked;  ///< indices into evals of the top K feasible, best first
  std::size_t feasible = 0;         ///< feasible configurations in all
  std::vector<Loser> losers;        ///< in the order of Search::kinds
  std::vector<Change> changes;      ///< empty unless nothing is feasible
  const Eval& at(std::size_t rank) const { return evals[ranked[rank]]; }
};

/// The search `s` under the settings `c` (everything but strategy, GPUs and batch).
Recommendation recommend(const strategy::Workload& w, const strategy::Config& c, const Search& s);

/// Why a strategy is not in the top K, from its own predictions `mine`: when none is
/// feasible, its smallest out-of-memory footprint or its widest invalid configuration;
/// otherwise its best against `winner` (not null then) and scaling_notes().
std::string why_not(const std::vector<const Eval*>& mine, const Eval* winner, const Ranking& rank,
                    double usable_bytes);

/// Notes on how a strategy scales, from its feasible predictions (`feasible`, ranked best
/// first, none empty): where it turns communication-bound, whether compute grows with GPUs
/// (the pipeline's bubble) or barely shrinks.
std::vector<std::string> scaling_notes(const std::vector<Eval>& feasible);

/// The largest batch below `below` at which some strategy of `s` fits on some GPU count
/// (memlimit's exact search per strategy and count, not halvings); 0: none.
std::int64_t largest_smaller_batch(const strategy::Workload& w, const strategy::LayerSums& sums,
                                   strategy::Config c, const Search& s, std::int64_t below);

/// When no configuration fits: each setting that saves memory, changed alone (the rest as
/// given), then all of them together, then `smaller_batch` (the largest batch below the
/// smallest tried at which some strategy and GPU count fits; 0: none).
std::vector<Change> what_would_fit(const strategy::Workload& w, const strategy::LayerSums& sums,
                                   const strategy::Config& c, const Search& s,
                                   std::int64_t smaller_batch);

/// "4 GPUs, batch 256".
std::string config_text(const Eval& e);

}  // namespace paradise::recommend
