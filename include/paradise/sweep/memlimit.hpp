// Memory limits found by search, not by guessing a grid: the largest batch and the largest
// input resolution that fit, and the fewest GPUs that make a resolution fit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "paradise/model/dataset.hpp"
#include "paradise/strategy/compute_memo.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::sweep {

/// A workload family over the input resolution: the dataset's sample with every spatial
/// extent set to `side` (a cube for 3-D data, a square for 2-D).
struct ResolutionFamily {
  strategy::WorkloadSpec spec;    ///< model, dataset, system; the dataset's shape is re-sized
  system::Overrides overrides{};  ///< the sweep's network and input values; 0: keep
  model::SamplesAtSide samples_at_side = model::SamplesAtSide::Fixed;  ///< samples per epoch
  /// The workload at one side length, or nullopt when the model cannot take it: too small,
  /// or (then *too_large is set) a tensor past the supported sizes, as at every larger side.
  std::optional<strategy::Workload> at(std::int64_t side, bool* too_large = nullptr) const;
  /// The same, throwing InputError with the reason when the model cannot take it (also for
  /// a ParaDL .net model, whose input shape is fixed).
  strategy::Workload make(std::int64_t side) const;
  /// make() without the resolution: the dataset as it is.
  strategy::Workload native() const;
  /// Why no side at all can be taken (a fixed-shape .net model; a 2-D model on 3-D data),
  /// or empty: a search need not try each side to find out.
  std::string no_side_reason() const;
};

struct Limit {
  std::int64_t value = 0;  ///< the largest (or smallest) feasible value; 0 if none
  int evaluations = 0;     ///< predictions made to find it
};

/// The batches a strategy can divide evenly are the multiples of this step (0: none); with
/// p2 = auto, those of one group of every GPU, with segments = auto of one sample per
/// micro-batch (the most batches some value divides).
std::int64_t batch_step(const strategy::Workload& w, const strategy::Config& c);

/// Largest feasible batch in [lo, hi] among the batches the strategy can divide (multiples
/// of the GPUs for data, of the groups for the hybrids, of the micro-batches for pipeline):
/// memory grows with the batch, so bisection finds it; p2 = auto: the largest over the group
/// sizes it tries, segments = auto: each batch at its best micro-batches (micro-batches of
/// one sample keep memory non-decreasing in the batch). `sums`: the workload's, if at hand
/// (a sweep's; else computed), and `memo` is used as by predict.
Limit largest_batch(const strategy::Workload& w, strategy::Config c, std::int64_t lo,
                    std::int64_t hi, const strategy::LayerSums* sums = nullptr,
                    strategy::ComputeMemo* memo = nullptr);

/// Largest side among lo, lo + step, ... <= hi at which the configuration is feasible.
/// Every layer's output extent is non-decreasing in its input extent, so with the same
/// layers split memory is too, and the out-of-memory boundary is found by bisection. With
/// the default layer config a larger side can let a spatial split reach one more, narrow
/// convolution, whose tensors then shrink (CosmoFlow, spatial on 64 ABCI GPUs at batch 16:
/// up to 425 fits, 426..513 does not, 514..551 does): the sides are searched in runs of the
/// same split, from the top. Sides the model cannot take (too small) count as fitting, so give a
/// step the model accepts (8 for unet3d).
Limit largest_resolution(const ResolutionFamily& f, const strategy::Config& c, std::int64_t lo,
                         std::int64_t hi, std::int64_t step = 1);

/// What the side search needs of the prediction at one side.
struct SideOutcome {
  strategy::Status status = strategy::Status::Invalid;
  int split_layer = -1;    ///< Prediction::split_layer; never smaller at a larger side
  bool too_large = false;  ///< a tensor past the supported sizes: so is every larger side
  /// The model cannot take the side (too small, or not a multiple its layers need): a
  /// smaller side may still be taken. Otherwise an invalid prediction is a strategy's
  /// constraint (batch divisibility, GPU or filter counts, a split wider than the layers),
  /// which holds at every smaller side with the same split too.
  bool untaken = false;
};

/// Whether a model takes an input side: yes, no (too small, or not a multiple its layers
/// need), or too large (past the supported sizes, as is every larger side).
enum class SideTaken { Yes, No, TooLarge };
/// A side found by first_side or last_side.
struct FoundSide {
  std::int64_t side = 0;   ///< 0: none found
  bool too_large = false;  ///< that side, and every larger one, is past the supported sizes
  bool exhausted = false;  ///< none found and every side of the range was tried
};
/// The first side of lo, lo + step, ... <= hi that is taken or too large, among the first
/// 4,096 (a bounded walk that never steps past hi: 1..2^63-1 +2^62 overflowed).
FoundSide first_side(std::int64_t lo, std::int64_t hi, std::int64_t step,
                     const std::function<SideTaken(std::int64_t)>& taken);
/// The last side of the same range that is taken: below the first side past the supported
/// sizes (by bisection, as every larger side is past them too), a walk down of at most 4,096
/// sides. too_large: every side of the range is past the supported sizes.
FoundSide last_side(std::int64_t lo, std::int64_t hi, std::int64_t step,
                    const std::function<SideTaken(std::int64_t)>& taken);

/// Whether `value`, the largest batch that largest_batch(w, c, lo, hi) found, is the top of
/// its search: the next batch the strategy divides lies past hi. Such a limit is a lower
/// bound (a larger batch may fit), `paradise memlimit`'s "or more".
bool batch_at_search_end(const strategy::Workload& w, const strategy::Config& c, std::int64_t value,
                         std::int64_t hi);
/// Whether `value`, the largest side of lo, lo + step, ... <= hi found to fit, is the top of
/// its search, a lower bound: no later side of the range, among the next 4,096, is one the
/// model takes. A later side past the supported sizes ends the search there (nothing larger
/// fits): the limit is then real, not flagged.
bool side_at_search_end(std::int64_t value, std::int64_t hi, std::int64_t step,
                        const std::function<SideTaken(std::int64_t)>& taken);

/// The search behind largest_resolution over any outcome-of-side function.
Limit largest_side(const std::function<SideOutcome(std::int64_t)>& at, std::int64_t lo,
                   std::int64_t hi, std::int64_t step);

/// Smallest GPU count among `gpus` (ascending) at which the configuration is feasible.
Limit fewest_gpus(const strategy::Workload& w, strategy::Config c,
                  const std::vector<std::int64_t>& gpus);

}  // namespace paradise::sweep
