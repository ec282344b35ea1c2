// Why a strategy lost, from its own predictions.
#include <algorithm>

#include "paradise/core/table.hpp"
#include "paradise/recommend/recommend.hpp"

namespace paradise::recommend {

using strategy::Kind;
using strategy::Limit;
using strategy::Status;

namespace {

/// "all 7 configurations", "5 of 7 configurations", "its only configuration".
std::string share_text(std::size_t n, std::size_t of) {
  if (of == 1) return "its only configuration";
  return (n == of ? "all " : std::to_string(n) + " of ") + std::to_string(of) + " configurations";
}

std::string ratio_text(double r) {
  return fixed(r, r < 10 ? 2 : 1) + "x";
}

/// A part of the epoch larger by less than this is not named as a cause.
constexpr double kGrowthWorthSaying = 1.05;

/// What makes `best` slower than `winner`: its parts (compute, communication before
/// overlap, the framework's time per step, the wait for input, per epoch) that exceed the
/// winner's, the larger excess first, with both values; where none exceeds, the overlap that
/// hides less of its communication.
std::string mechanism(const Eval& best, const Eval& winner) {
  struct Part {
    const char* name;
    double mine, theirs;
  };
  std::vector<Part> parts{{"compute", best.compute_s, winner.compute_s},
                          {"communication", best.communication_s, winner.communication_s},
                          {"framework time per step", best.step_overhead_s, winner.step_overhead_s},
                          {"waiting for input", best.input_s, winner.input_s}};
  std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return a.mine - a.theirs > b.mine - b.theirs; });
  std::string s;
  for (const auto& p : parts) {
    if (p.mine <= p.theirs || p.mine < kGrowthWorthSaying * p.theirs) continue;
    s += (s.empty() ? "" : ", ") + std::string(p.name) + " " + fixed(p.mine, 1) +
         " s per epoch against the winner's " + fixed(p.theirs, 1) + " s";
  }
  if (s.empty())
    return "its parts are no larger than the winner's: less of its communication is "
           "hidden behind compute";
  return s;
}

/// Against the winner to train: the ratio, and which factor differs, the epochs to target
/// (its batch against the winner's) or the epoch itself (its mechanism).
std::string to_train_text(const Eval& best, const Eval& winner, Objective o) {
  const bool hours = o == Objective::GpuHoursToTrain;
  const double mine = best.time_to_train_s() * (hours ? static_cast<double>(best.gpus) : 1);
  const double theirs = winner.time_to_train_s() * (hours ? static_cast<double>(winner.gpus) : 1);
  std::string s = ratio_text(mine / theirs) + " the winner's " + (hours ? "GPU-hours" : "time") +
                  " to train (" + fixed(best.epochs_to_target, 1) + " epochs at batch " +
                  std::to_string(best.batch) + " against " + fixed(winner.epochs_to_target, 1) +
                  " at " + std::to_string(winner.batch);
  if (best.epoch_s > winner.epoch_s) s += "; " + mechanism(best, winner);
  return s + ")";
}

/// "communication-bound beyond N": N the largest count at which it was compute-bound, every
/// feasible configuration on more GPUs communication-bound; empty otherwise.
std::string communication_note(const std::vector<Eval>& feasible) {
  std::int64_t n = 0;
  for (const auto& e : feasible) {
    if (e.limit == Limit::Compute) n = std::max(n, e.gpus);
  }
  bool beyond = false, all_comm = true;
  for (const auto& e : feasible) {
    if (e.gpus <= n) continue;
    beyond = true;
    all_comm = all_comm && e.limit == Limit::Communication;
  }
  if (!beyond || !all_comm) return "";
  return n > 0 ? "communication-bound beyond " + gpus_text(n)
               : "communication-bound at every GPU count tried";
}

/// Compute per epoch against GPUs, at the batch of the best configuration: whether it grows
/// (the pipeline's bubble) or barely shrinks; empty otherwise.
std::string compute_note(const std::vector<Eval>& feasible) {
  std::vector<const Eval*> at_batch;
  for (const auto& e : feasible) {
    if (e.batch == feasible.front().batch) at_batch.push_back(&e);
  }
  std::sort(at_batch.begin(), at_batch.end(),
            [](const Eval* a, const Eval* b) { return a->gpus < b->gpus; });
  if (at_batch.size() < 2) return "";
  const Eval& smallest = *at_batch.front();
  const Eval& largest = *at_batch.back();
  const Eval& least =
      **std::min_element(at_batch.begin(), at_batch.end(),
                         [](const Eval* a, const Eval* b) { return a->compute_s < b->compute_s; });
  // growth worth a sentence (5%): the pipeline's (p + S - 1) / S factor once the slowest
  // stage stops shrinking; a 0.6% rise was called a bubble
  if (largest.gpus > least.gpus && largest.compute_s > kGrowthWorthSaying * least.compute_s) {
    return std::string(smallest.kind == Kind::Pipeline ? "pipeline bubble: " : "") +
           "compute per epoch grows with GPUs, from " + fixed(least.compute_s, 1) + " s on " +
           std::to_string(least.gpus) + " to " + fixed(largest.compute_s, 1) + " s on " +
           std::to_string(largest.gpus);
  }
  if (largest.gpus >= 4 * smallest.gpus && largest.compute_s > 0.5 * smallest.compute_s) {
    // at least two doublings: a data-parallel ceil(D/p) must not read as "barely"
    return "compute barely shrinks with more GPUs (" + fixed(smallest.compute_s, 1) + " s on " +
           std::to_string(smallest.gpus) + ", " + fixed(largest.compute_s, 1) + " s on " +
           std::to_string(largest.gpus) + ")";
  }
  return "";
}

/// Why none of `mine` is feasible (`oom` out of memory, the smallest footprint
/// `least_memory`; `invalid` invalid, the widest `widest_invalid`): the more common failure
/// first.
std::string none_feasible(const std::vector<const Eval*>& mine, std::size_t oom,
                          const Eval* least_memory, std::size_t invalid,
                          const Eval* widest_invalid) {
  if (mine.empty()) return "not evaluated: on 1 GPU it is serial";
  if (oom >= invalid) {
    std::string s = "out of memory: " + least_memory->reason + " (its smallest footprint, at " +
                    config_text(*least_memory) + "; " + share_text(oom, mine.size()) +
                    " out of memory)";
    if (invalid > 0) s += "; the others invalid, e.g. " + widest_invalid->reason;
    return s;
  }
  std::string s = "invalid: " + widest_invalid->reason + " (at " + config_text(*widest_invalid) +
                  "; " + share_text(invalid, mine.size()) + " invalid)";
  if (oom > 0) s += "; the others out of memory: " + least_memory->reason;
  return s;
}

}  // namespace

std::vector<std::string> scaling_notes(const std::vector<Eval>& feasible) {
  std::vector<std::string> notes;
  for (auto note : {communication_note(feasible), compute_note(feasible)}) {
    if (!note.empty()) notes.push_back(std::move(note));
  }
  return notes;
}

std::string why_not(const std::vector<const Eval*>& mine, const Eval* winner, const Ranking& rank,
                    double usable_bytes) {
  std::vector<Eval> feasible;
  const Eval *least_memory = nullptr, *widest_invalid = nullptr;
  std::size_t oom = 0, invalid = 0;
  for (const Eval* e : mine) {
    if (e->status == Status::Ok) {
      feasible.push_back(*e);
    } else if (e->status == Status::OutOfMemory) {
      ++oom;
      if (!least_memory || e->memory_bytes < least_memory->memory_bytes) least_memory = e;
    } else {
      ++invalid;
      if (!widest_invalid || e->gpus > widest_invalid->gpus) widest_invalid = e;
    }
  }
  if (feasible.empty()) return none_feasible(mine, oom, least_memory, invalid, widest_invalid);
  std::sort(feasible.begin(), feasible.end(), rank);
  const Eval& best = feasible.front();
  std::string s =
      "best at " + config_text(best) + " (" + fixed(best.epoch_s, 1) + " s per epoch): ";
  switch (rank.objective) {
    case Objective::Time:
      s += ratio_text(best.epoch_s / winner->epoch_s) + " the winner's epoch time";
      if (best.epoch_s > winner->epoch_s) s += " (" + mechanism(best, *winner) + ")";
      break;
    case Objective::GpuHours:
      s += ratio_text(best.gpu_hours() / winner->gpu_hours()) + " the winner's GPU-hours (" +
           gpus_text(best.gpus) + " against " + gpus_text(winner->gpus) +
           (best.epoch_s > winner->epoch_s ? "; " + mechanism(best, *winner) : "") + ")";
      break;
    case Objective::MemoryHeadroom:
      s += human_bytes(usable_bytes - best.memory_bytes) + " memory headroom, the winner has " +
           human_bytes(usable_bytes - winner->memory_bytes);
      break;
    case Objective::TimeToTrain:
    case Objective::GpuHoursToTrain:
      s += to_train_text(best, *winner, rank.objective);
      break;
  }
  for (const auto& note : scaling_notes(feasible)) s += "; " + note;
  return s;
}

}  // namespace paradise::recommend
