// Activation recomputation (Chen et al., "Training Deep Nets with Sublinear Memory Cost",
// 2016; docs/cost-model.md §recomputation): the segment plan, and the activation memory of a
// training step run by it as torch.utils.checkpoint (use_reentrant=False) runs it, measured by
// analysis/reference/torch_recompute.py.
#include "recompute.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "paradise/strategy/roofline.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy {
namespace {

// Chen et al.'s greedy plan: keep each segment's input, recompute one segment at a time in
// the backward pass. Segments are filled up to total / segments saved elements, in layer
// order, and end at the first articulation point past that (only the previous layer's
// output crosses the cut: a residual block's end, as Chen's greedy plan takes its
// candidates, Checkmate's strategy_chen.py), or, with none before the segment would pass
// twice its share (U-Net's long skips), there. A segment runs at least one layer besides
// the input and starts with none in place or a view (it would overwrite its checkpoint;
// torch.utils.checkpoint refuses an in-place op on its input). Returns each segment's
// first layer.
std::vector<std::size_t> recompute_plan(const model::ModelStats& m, std::size_t segments) {
  double total = 0;
  for (const auto& l : m.layers) total += static_cast<double>(l.saved_elements);
  const double target = total / static_cast<double>(std::max<std::size_t>(1, segments));
  double seg = 0;  // saved elements of the current segment, its checkpoints at the end less
  std::size_t begin = 0;
  bool computes = false;  // the current segment has a layer besides the input
  std::vector<std::size_t> begins{0};
  std::vector<bool> kept(m.layers.size(), false);  // buffers already checkpoints
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const auto& l = m.layers[i];
    const double saved = static_cast<double>(l.saved_elements);
    // only the previous layer's output crosses a cut before layer i (every tensor has an
    // element, so equal counts leave no other)
    const bool articulation = i > 0 &&
                              m.layers[i - 1].last_reader >= static_cast<std::int64_t>(i) &&
                              l.crossing_elements == m.layers[i - 1].output_elements;
    const bool cuttable = computes && l.buffer_layer == static_cast<std::int64_t>(i);
    if (seg > 0 && cuttable && begins.size() < segments &&
        ((seg + saved > target && articulation) || seg + saved > 2 * target)) {
      // the tensors made in the segment and read at or after layer i become checkpoints
      for (std::size_t j = begin; j < i; ++j) {
        const auto buffer = static_cast<std::size_t>(m.layers[j].buffer_layer);
        if (m.layers[j].last_reader < static_cast<std::int64_t>(i) || kept[buffer]) continue;
        kept[buffer] = true;
        if (buffer >= begin) seg -= static_cast<double>(m.layers[buffer].saved_elements);
      }
      begins.push_back(i);
      seg = 0;
      begin = i;
      computes = false;
    }
    computes = computes || l.op != model::Op::Input;
    seg += saved;
  }
  return begins;
}

// Chen et al.'s sqrt(L) segments
std::size_t recompute_segments(const model::ModelStats& m) {
  return static_cast<std::size_t>(
      std::max(1.0, std::round(std::sqrt(static_cast<double>(m.layers.size())))));
}

// The model's tensors as buffers, each on the layer whose output it is (its owner,
// LayerStats::buffer_layer; the arrays are 0 elsewhere): its elements, the elements saved of
// it and its first saver (-1: none), its last reader over its aliases. The data (the
// model's input) apart: a graph's input layer, or a .net chain's first layer's input. A
// chain's layer saves its input (saves_inputs_as_own): the previous layer's output.
struct Buffers {
  std::vector<double> elements, saved;
  std::vector<std::int64_t> saver, last_use;
  double data = 0, data_saved = 0;
  std::int64_t data_saver = -1;
};
Buffers buffers_of(const model::ModelStats& m) {
  const std::size_t n = m.layers.size();
  if (m.reader_begin.size() != n + 1 || m.saver_begin.size() != n + 1)
    throw std::logic_error("model '" + m.name + "': statistics without its readers and savers");
  Buffers b{std::vector<double>(n, 0), std::vector<double>(n, 0), std::vector<std::int64_t>(n, -1),
            std::vector<std::int64_t>(n, 0)};
  for (std::size_t j = 0; j < n; ++j) {
    const auto& l = m.layers[j];
    const auto o = static_cast<std::size_t>(l.buffer_layer);
    b.last_use[o] = std::max(b.last_use[o], l.last_reader);
    if (o != j) continue;
    b.elements[j] = static_cast<double>(l.output_elements);
    if (m.saver_begin[j] == m.saver_begin[j + 1]) continue;  // saved by nobody
    b.saver[j] = m.savers[static_cast<std::size_t>(m.saver_begin[j])];
    // a chain's saved input is counted on the layer keeping it
    b.saved[j] = static_cast<double>(
        m.saves_inputs_as_own ? m.layers[static_cast<std::size_t>(b.saver[j])].saved_elements
                              : l.saved_elements);
  }
  if (n == 0) return b;
  if (m.saves_inputs_as_own) {
    b.data = static_cast<double>(m.layers[0].input_elements);
    b.data_saved = static_cast<double>(m.layers[0].saved_elements);
  } else {  // the input layer's buffer
    std::tie(b.data, b.data_saved) = std::pair{b.elements[0], b.saved[0]};
    b.elements[0] = b.saved[0] = 0;
    std::swap(b.data_saver, b.saver[0]);
  }
  if (m.saves_inputs_as_own && b.data_saved > 0) b.data_saver = 0;
  return b;
}

}  // namespace

namespace detail {
namespace {

// Where the buffers live under the plan `begins`: each layer's segment; the checkpoints
// alive from segment s on; per segment the activations its backward holds recomputed; per
// layer what its backward releases and what the forward pass drops after it.
struct PlanBuffers {
  std::vector<std::size_t> seg_of;
  std::vector<double> checkpoints, recomputed_of, release_at, drop_after;
};

PlanBuffers place_buffers(const model::ModelStats& m, const std::vector<std::size_t>& begins,
                          const Buffers& buf) {
  const std::size_t n = m.layers.size(), count = begins.size();
  PlanBuffers p{std::vector<std::size_t>(n), std::vector<double>(count + 1, 0),
                std::vector<double>(count, 0), std::vector<double>(n, 0),
                std::vector<double>(n, 0)};
  auto& seg_of = p.seg_of;
  for (std::size_t s = 0; s < count; ++s)
    for (std::size_t i = begins[s]; i < (s + 1 < count ? begins[s + 1] : n); ++i) seg_of[i] = s;
  // per buffer: the first segment after its own to read it (any tensor in it); `count` if none
  std::vector<std::size_t> first_later(n, count);
  for (std::size_t j = 0; j < n; ++j) {
    const auto b = static_cast<std::size_t>(m.layers[j].buffer_layer);
    for (auto r = m.reader_begin[j]; r < m.reader_begin[j + 1]; ++r) {
      const std::size_t t =
          seg_of[static_cast<std::size_t>(m.readers[static_cast<std::size_t>(r)])];
      if (t > seg_of[b]) first_later[b] = std::min(first_later[b], t);
    }
  }
  const auto kept_in_own = [&](std::int64_t saver, std::size_t b) {
    return saver >= 0 && seg_of[static_cast<std::size_t>(saver)] == seg_of[b];
  };
  if (count > 1) {
    p.checkpoints[0] += buf.data;
  } else if (buf.data_saver >= 0) {
    p.recomputed_of[0] += buf.data_saved;
    p.release_at[static_cast<std::size_t>(buf.data_saver)] += buf.data_saved;
  }
  // a saver of buffer b at or after layer `from` (-1: none)
  const auto saver_from = [&](std::size_t b, std::size_t from) -> std::int64_t {
    const auto first = m.savers.begin() + m.saver_begin[b],
               last = m.savers.begin() + m.saver_begin[b + 1];
    const auto at = std::lower_bound(first, last, static_cast<std::int32_t>(from));
    return at == last ? -1 : *at;
  };
  for (std::size_t b = 0; b < n; ++b) {
    if (first_later[b] + 1 < count) {
      p.checkpoints[first_later[b]] += buf.elements[b];
    } else if (first_later[b] + 1 == count) {
      // read later only by the last segment, which runs without checkpoint: kept from its
      // forward pass by its first saver there until that layer's backward, or by none
      const std::int64_t k = saver_from(b, begins[count - 1]);
      if (k >= 0) {
        p.recomputed_of[count - 1] += buf.elements[b];
        p.release_at[static_cast<std::size_t>(k)] += buf.elements[b];
      }
    }
    if (kept_in_own(buf.saver[b], b)) {
      p.recomputed_of[seg_of[b]] += buf.saved[b];
      p.release_at[static_cast<std::size_t>(buf.saver[b])] += buf.saved[b];
    } else if (first_later[b] == count) {  // a transient of the forward pass
      p.drop_after[static_cast<std::size_t>(buf.last_use[b])] += buf.elements[b];
    }
  }
  return p;
}

// The step's peak per element size ([0] 2 bytes, [1] 4) and its activations and fixed bytes
// there, over the candidates offered.
struct StepPeak {
  std::array<Recomputed, 2> r;
  std::array<double, 2> peak{-1, -1};
  void candidate(double activations, double gradients, double fixed) {
    for (const std::size_t at : {std::size_t{0}, std::size_t{1}}) {
      const double e = at == 0 ? 2.0 : 4.0, bytes = e * (activations + gradients) + fixed;
      if (bytes <= peak[at]) continue;
      peak[at] = bytes;
      std::tie(r[at].saved, r[at].saved_fixed_bytes) = std::pair{activations, fixed};
    }
  }
};

// Every moment of the step that can peak, segment by segment: a checkpointed segment's
// forward run again in its first backward node, then each layer's backward.
void walk_step(const model::ModelStats& m, const std::vector<std::size_t>& begins,
               const Buffers& buf, const PlanBuffers& p, double labels, StepPeak& peak) {
  const std::size_t n = m.layers.size(), count = begins.size();
  double alive_checkpoints = 0;
  for (std::size_t s = 0; s < count; ++s) {
    alive_checkpoints += p.checkpoints[s];
    const std::size_t end = s + 1 < count ? begins[s + 1] : n;
    std::size_t first = end;  // the first backward node autograd runs in s
    while (first > begins[s] && m.layers[first - 1].pending_gradient_elements == 0) --first;
    if (s + 1 < count && first > begins[s]) {
      const auto pending = static_cast<double>(m.layers[first - 1].pending_gradient_elements);
      double made = 0, fixed = labels;
      for (std::size_t i = begins[s]; i < end; ++i) {
        made += buf.elements[i];
        fixed += released_fixed_bytes(m.layers[i]);
        peak.candidate(alive_checkpoints + made, pending, fixed);
        made -= p.drop_after[i];
      }
    }
    double held = alive_checkpoints + p.recomputed_of[s], fixed = labels;
    for (std::size_t k = begins[s]; k < end; ++k) fixed += released_fixed_bytes(m.layers[k]);
    for (std::size_t k = end; k-- > begins[s];) {
      const auto& l = m.layers[k];
      peak.candidate(held, static_cast<double>(l.backward_gradient_elements), fixed);
      held -= p.release_at[k];
      fixed -= released_fixed_bytes(l);
    }
  }
}

// The activation memory of a training step run by the plan `begins`, as PyTorch runs
// torch.utils.checkpoint (use_reentrant=False) over each segment but the last, given the
// tensors it reads (analysis/reference/torch_recompute.py measures it). In segment s are
// alive:
//  * the checkpoints: the buffers made before s and read by a segment from the one after
//    their own up to s (that segment holds its inputs until its backward pass is done); the
//    data from the first segment on, whose backward pass comes last; a loss's labels; a
//    buffer read later only by the last segment (not checkpointed) is held there only by a
//    layer saving it (ModelStats::savers), until that layer's backward;
//  * when s is checkpointed, as its first backward node runs the segment's forward again
//    (torch.utils.checkpoint's unpack hook): the gradients alive as that node begins
//    (LayerStats::pending_gradient_elements), and in layer i of the forward, the buffers
//    made in s up to i that are saved in s, read at or after i, or read by a later segment
//    (returned), and the fixed bytes (indices, masks) of s's layers up to i;
//  * in layer k's backward: s's recomputed activations, the buffers made in s whose first
//    saver is in s, less those whose first saver's backward has run (after k), and s's
//    layers' fixed bytes less those after k (the last segment's are its forward's, the
//    same), and the activation gradients alive in k (LayerStats::backward_gradient_elements).
// `buf` is buffers_of(m), `labels` the loss's labels' bytes, held through the step
// (released_fixed_bytes).
std::array<Recomputed, 2> evaluate_plan(const model::ModelStats& m,
                                        const std::vector<std::size_t>& begins, const Buffers& buf,
                                        double labels) {
  const std::size_t n = m.layers.size(), count = begins.size();
  const PlanBuffers p = place_buffers(m, begins, buf);
  StepPeak peak;
  walk_step(m, begins, buf, p, labels, peak);
  std::array<Recomputed, 2>& r = peak.r;
  double again = 0, forward = 0;
  for (std::size_t i = 0; i < n; ++i) {
    forward += m.layers[i].forward_flops;
    if (p.seg_of[i] + 1 < count) again += m.layers[i].forward_flops;
  }
  for (const std::size_t at : {std::size_t{0}, std::size_t{1}}) {
    const double e = at == 0 ? 2.0 : 4.0;
    r[at].gradient_peak_bytes =
        std::max(0.0, peak.peak[at] - (e * r[at].saved + r[at].saved_fixed_bytes));
    r[at].forward_share = forward > 0 ? again / forward : 0;
    r[at].cuts.assign(begins.begin() + 1, begins.end());
  }
  return r;
}

}  // namespace

// Chen et al.'s greedy plan over a grid of its budget, total / k saved elements per segment
// for k = 2 .. 2 round(sqrt L) (Chen's own choice, round(sqrt L), in the middle; k = 1
// recomputes nothing): per element size, the plan whose step peaks lowest, Chen's own on a
// tie, and whether it peaks lower than the plain step (one segment) at all. ResNet-50's at 4 bytes:
// a budget of 1/10, 9 segments, 26.3 MB per sample where Chen's 1/13 (11 segments) said 32.3 MB.
// The two sizes can choose apart: the 2-byte elements weigh less beside the fixed bytes (indices,
// masks, labels) than the 4-byte.
std::array<Recomputed, 2> recomputed(const model::ModelStats& m) {
  const Buffers buf = buffers_of(m);
  double labels = 0;
  for (const auto& l : m.layers)
    labels += static_cast<double>(l.saved_fixed_bytes) - released_fixed_bytes(l);
  const auto step_peak = [](const Recomputed& r, double e) {
    return e * r.saved + r.saved_fixed_bytes + r.gradient_peak_bytes;
  };
  const std::size_t chen = recompute_segments(m);
  std::vector<std::size_t> plan = recompute_plan(m, chen);
  std::array<Recomputed, 2> best = evaluate_plan(m, plan, buf, labels);
  // one segment: nothing run again, the plain step's peak
  const std::array<Recomputed, 2> none = evaluate_plan(m, {0}, buf, labels);
  for (std::size_t k = 2; k <= 2 * chen; ++k) {
    std::vector<std::size_t> next = recompute_plan(m, k);
    if (k == chen || next == plan) continue;  // neighbouring budgets often cut alike
    plan = std::move(next);
    std::array<Recomputed, 2> r = evaluate_plan(m, plan, buf, labels);
    for (const std::size_t at : {std::size_t{0}, std::size_t{1}}) {
      const double e = at == 0 ? 2.0 : 4.0;
      if (step_peak(r[at], e) < step_peak(best[at], e)) best[at] = std::move(r[at]);
    }
  }
  // a plan that does not lower the plain step's peak runs forward FLOPs again for nothing
  // (CosmoFlow: its step peaks in the first convolution's backward whatever is checkpointed)
  for (const std::size_t at : {std::size_t{0}, std::size_t{1}}) {
    const double e = at == 0 ? 2.0 : 4.0;
    best[at].lowers_peak = step_peak(best[at], e) < step_peak(none[at], e);
  }
  return best;
}

}  // namespace detail

std::vector<std::size_t> recompute_cuts(const model::ModelStats& m, double element_bytes) {
  return detail::recomputed(m)[element_size_index(element_bytes)].cuts;
}

}  // namespace paradise::strategy
