// memlimit's searches, and why each found none.
#include "paradise/report/memlimit.hpp"

#include <string>

#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::report {
namespace {

/// The searches of one query, and the reasons for "none" from the predictions at their ends.
class Searches {
 public:
  Searches(const MemlimitQuery& q, const sweep::ResolutionFamily& family)
      : q_(q), c_(q.c), family_(family) {}

  /// The largest batch on `at` up to --max-batch.
  FoundLimit largest_batch(const strategy::Workload& at) const {
    FoundLimit f{sweep::largest_batch(at, c_, 1, q_.max_batch), "", false};
    if (f.limit.value <= 0) f.why_none = why_no_batch(at, f.limit);
    // a limit at the top of its search is a lower bound: the next batch the strategy divides
    // lies past --max-batch (not looked at)
    f.at_search_end = sweep::batch_at_search_end(at, c_, f.limit.value, q_.max_batch);
    if (f.limit.value > 0) shape_at(f, predict_at_batch(at, c_, f.limit.value));
    return f;
  }

  /// The largest side of the range at the query's batch.
  FoundLimit largest_side() const {
    const auto& range = q_.range;
    FoundLimit f{sweep::largest_resolution(family_, c_, range.front(), range.back(), q_.step), "",
                 false};
    if (f.limit.value <= 0) f.why_none = why_no_side();
    if (f.limit.value > 0) shape_at(f, predict_at_batch(*family_.at(f.limit.value), c_, c_.batch));
    // no later side of the range is taken: a larger one may fit
    f.at_search_end = sweep::side_at_search_end(f.limit.value, range.back(), q_.step,
                                                [&](std::int64_t s) { return taken(s); });
    return f;
  }

  /// The fewest GPUs and the largest batch at one listed side.
  SideLimits at_side(std::int64_t side) const {
    const auto ws = family_.make(side);
    SideLimits a{side, sweep::fewest_gpus(ws, c_, q_.counts).value, "", largest_batch(ws)};
    if (a.fewest_gpus <= 0) a.why_no_gpus = why_no_gpus(ws);
    return a;
  }

 private:
  /// The shape the prediction at a limit used.
  static void shape_at(FoundLimit& f, const strategy::Prediction& p) {
    f.p2 = p.p2;
    f.segments = p.segments;
  }

  static strategy::Prediction predict_at_batch(const strategy::Workload& at, strategy::Config one,
                                               std::int64_t batch) {
    one.batch = batch;
    return strategy::predict(at, one);
  }

  /// "at batch N: status, reason".
  static std::string why(const strategy::Workload& at, const strategy::Config& one,
                         std::int64_t batch) {
    const auto p = predict_at_batch(at, one, batch);
    return "at batch " + with_commas(batch) + ": " + std::string(strategy::status_name(p.status)) +
           (p.reason.empty() ? "" : ", " + p.reason);
  }

  /// Why no batch fits: at the search's low end, the smallest batch the strategy divides
  /// evenly.
  std::string why_no_batch(const strategy::Workload& at, const sweep::Limit& l) const {
    const std::int64_t divides = sweep::batch_step(at, c_);  // 0: no batch divides (the GPUs)
    if (divides == 0) return why(at, c_, 1);
    return l.evaluations == 0
               ? "no batch up to --max-batch " + with_commas(q_.max_batch) +
                     " that the strategy divides evenly (multiples of " + with_commas(divides) + ")"
               : why(at, c_, divides);
  }

  sweep::SideTaken taken(std::int64_t side) const {
    bool too_large = false;
    if (family_.at(side, &too_large)) return sweep::SideTaken::Yes;
    return too_large ? sweep::SideTaken::TooLarge : sweep::SideTaken::No;
  }

  std::string at_side_text(std::int64_t side) const {
    return "side " + std::to_string(side) + " " + why(*family_.at(side), c_, c_.batch);
  }

  /// Why no side fits: the prediction at the smallest side of the range the model takes, and
  /// at the largest where it fails otherwise (a split too wide for small sides, out of memory
  /// for large ones).
  std::string why_no_side() const {
    if (std::string no = family_.no_side_reason(); !no.empty()) return no;
    const auto& range = q_.range;
    const auto taken_at = [&](std::int64_t s) { return taken(s); };
    const auto f = sweep::first_side(range.front(), range.back(), q_.step, taken_at);
    if (f.too_large)
      return "side " + std::to_string(f.side) + " and larger: tensors past the supported sizes";
    if (f.side == 0) {
      // why the first side is not taken (a range off the model's grid: 100..2048 +8 for
      // U-Net, which takes multiples of 8)
      std::string first;
      try {
        family_.make(range.front());
      } catch (const InputError& e) {
        first = "; side " + std::to_string(range.front()) + ": " + e.what();
      }
      return (f.exhausted ? "no side of the range that the model takes"
                          : "the model takes none of the range's first 4,096 sides") +
             first;
    }
    std::string reason = at_side_text(f.side);
    const auto l = sweep::last_side(range.front(), range.back(), q_.step, taken_at);
    if (l.side > f.side && predict_at_batch(*family_.at(l.side), c_, c_.batch).status !=
                               predict_at_batch(*family_.at(f.side), c_, c_.batch).status)
      reason += "; " + at_side_text(l.side);
    return reason;
  }

  /// Why no GPU count fits: the smallest footprint out of memory, else the largest count
  /// tried.
  std::string why_no_gpus(const strategy::Workload& at) const {
    std::int64_t pick = q_.counts.back();
    double least = 0;
    for (const auto g : q_.counts) {
      auto one = c_;
      one.gpus = g;
      const auto p = predict_at_batch(at, one, c_.batch);
      if (p.status == strategy::Status::OutOfMemory &&
          (least == 0 || p.memory_per_gpu_bytes < least))
        least = p.memory_per_gpu_bytes, pick = g;
    }
    auto one = c_;
    one.gpus = pick;
    return "on " + gpus_text(pick) + (least > 0 ? ", its smallest footprint," : "") + " " +
           why(at, one, c_.batch);
  }

  const MemlimitQuery& q_;
  const strategy::Config& c_;
  const sweep::ResolutionFamily& family_;
};

}  // namespace

Memlimits find_memlimits(const MemlimitQuery& q, const strategy::Workload& w,
                         const sweep::ResolutionFamily& family) {
  const Searches searches(q, family);
  Memlimits m;
  m.input = w.model.input.str();
  m.batch = searches.largest_batch(w);
  if (!q.resolution_text.empty()) m.side = searches.largest_side();
  // per listed side (each taken, checked before): the fewest GPUs at --batch, and the
  // largest batch on --gpus, as the sweep's memlimit tables give them per resolution
  for (const auto side : q.sides) m.at_sides.push_back(searches.at_side(side));
  return m;
}

}  // namespace paradise::report
