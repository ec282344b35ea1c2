// `paradise memlimit`: the largest batch, the largest input side and, per listed side, the
// fewest GPUs and the largest batch (sweep's memory-limit searches), each "none" with its
// reason from the predictions at the searches' ends; and their output as a table or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "paradise/strategy/config.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::report {

/// What is searched: the configuration and the searches' bounds, each checked (positive;
/// counts ascending and each once), with the options' text for the output.
struct MemlimitQuery {
  strategy::WorkloadSpec spec;
  std::string strategy_text;  ///< --strategy as given
  strategy::Config c;         ///< strategy, GPUs, the side searches' batch, settings
  std::int64_t max_batch = 1 << 20;
  std::string resolution_text;       ///< --resolution LO..HI; empty: no side search
  std::vector<std::int64_t> range;   ///< its sides, LO first and HI last
  std::int64_t step = 1;             ///< its side step
  std::vector<std::int64_t> sides;   ///< --sides; empty: no per-side tables
  std::vector<std::int64_t> counts;  ///< --gpu-counts, ascending, each once
  std::string gpu_counts_text;       ///< --gpu-counts as given
};

/// A limit found by a search, "why none" when it found none, and whether it is the top of
/// its search (a lower bound: a larger value may fit).
struct FoundLimit {
  sweep::Limit limit;
  std::string why_none;
  bool at_search_end = false;
  /// The group size and micro-batches at the limit (auto's choice there; 0: none).
  std::int64_t p2 = 0, segments = 0;
};

/// The searches at one listed side.
struct SideLimits {
  std::int64_t side = 0, fewest_gpus = 0;  ///< 0: none of the counts tried
  std::string why_no_gpus;
  FoundLimit batch;  ///< on the query's GPUs
};

struct Memlimits {
  std::string input;  ///< a sample of the dataset as given, C x spatial
  FoundLimit batch;
  std::optional<FoundLimit> side;  ///< when a range is searched
  std::vector<SideLimits> at_sides;
};

/// Every search `q` asks for: the batch on `w` (q.spec's workload), the sides on `family`
/// (q.spec's dataset re-sized; every listed side taken).
Memlimits find_memlimits(const MemlimitQuery& q, const strategy::Workload& w,
                         const sweep::ResolutionFamily& family);

void print_memlimits_table(std::ostream& out, const MemlimitQuery& q, const Memlimits& m);
void print_memlimits_json(std::ostream& out, const MemlimitQuery& q, const Memlimits& m);

}  // namespace paradise::report
