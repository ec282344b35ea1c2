// Activation-gradient liveness of the backward pass, replayed as PyTorch's autograd engine
// runs it (torch 2.x, torch/csrc/autograd/engine.cpp and input_buffer.cpp):
//   * nodes run in reverse creation order: layer L-1 first, down to layer 1;
//   * a node's incoming gradient lives while it runs and is freed after it, unless a
//     pass-through shares its storage: add (alpha 1) and flatten hand the same tensor on,
//     concat hands on narrow views of it (its storage lives while any view does), but
//     a centre-cropped input's (crop=1) gradient is new: slice_backward zero-fills one;
//   * every other backward allocates a new gradient of its input's size (none for an input
//     that needs no gradient: the data);
//   * a tensor read by several layers accumulates their gradients (InputBuffer::accumulate):
//     in place into the held one when it owns its storage alone (a dense tensor, not a
//     concat's view; torch 2.0 on: 1.13 always made a new sum), else into a new tensor;
//   * a node's saved tensors are released after it runs (release_variables): a buffer is
//     freed once its last holder, the earliest layer that saved it, has run;
//   * an in-place activation on an instance norm's output modifies a view: ATen's
//     instance_norm returns its [1, N*C, ...] batch norm's output reshaped by a view
//     (aten/src/ATen/native/Normalization.cpp), so autograd runs the view's regenerated
//     AsStridedBackward0 (a new gradient of the base, the incoming one freed) and then
//     CopySlices (torch/csrc/autograd/functions/tensor.cpp), which makes the base's
//     gradient, a clone of its slice and the activation's gradient of that clone, and hands
//     on the first: four gradients of the tensor held at once where an activation on a
//     tensor of its own holds two.
// The peak of a step is the larger of: everything alive plus the gradients the node makes
// (its incoming gradient still held), and, once that is freed, the new sums (the node's
// saved buffers counted as still held then: a little high). backward() starts from a
// gradient of every output nobody reads (the loss; a second head's).
#include "autograd_liveness.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "paradise/core/error.hpp"

namespace paradise::model {
namespace {

struct Storage {
  long double elements = 0;
  int refs = 0;
};

class Replay {
 public:
  /// A new storage of n elements with one reference.
  int allocate(long double n) {
    storages_.push_back({n, 1});
    live_ += n;
    return static_cast<int>(storages_.size()) - 1;
  }
  void hold(int s) { ++storages_[static_cast<std::size_t>(s)].refs; }
  void release(int s) {
    auto& st = storages_[static_cast<std::size_t>(s)];
    if (--st.refs == 0) live_ -= st.elements;
  }
  bool sole(int s) const { return storages_[static_cast<std::size_t>(s)].refs == 1; }
  long double live() const { return live_; }

 private:
  std::vector<Storage> storages_;
  long double live_ = 0;
};

/// A gradient held for a tensor: its storage, and whether it is a view (concat's narrow
/// slices) that autograd never accumulates into in place.
struct Held {
  int storage = -1;
  bool view = false;
};

bool passes_through(Op op) {
  return op == Op::Add || op == Op::Flatten;
}

/// Layer k is an in-place activation on an instance norm's output, a view (see above),
/// that needs a gradient: any in-place one, those that save a copy of their input
/// (relu6, silu, hardswish) too, since autograd wraps each in CopySlices.
bool modifies_a_view(const Graph& g, const std::vector<bool>& needs_grad, std::size_t k) {
  const Layer& l = g.layers()[k];
  if (l.op != Op::Activation || !l.inplace || l.inputs.empty()) return false;
  const auto source = static_cast<std::size_t>(l.inputs.front());
  return needs_grad[source] && g.layers()[source].op == Op::InstanceNorm;
}

/// The backward of an in-place activation on a view, its incoming gradient `in` of n
/// elements: AsStridedBackward0, then CopySlices. Returns the gradient it hands on and
/// raises `peak` to the most held while it ran.
int backward_through_a_view(Replay& replay, const Held& in, long double n, long double& peak) {
  const int base = replay.allocate(n);  // as_strided_backward: the base's gradient
  peak = std::max(peak, replay.live());
  replay.release(in.storage);
  const int result = replay.allocate(n);           // CopySlices: new_empty_strided(base)
  const int slice = replay.allocate(n);            // grad_slice.clone()
  const int activation_grad = replay.allocate(n);  // the activation's backward of the clone
  peak = std::max(peak, replay.live());
  replay.release(activation_grad);
  replay.release(slice);
  replay.release(base);
  return result;
}

/// The gradients node k makes of its inputs from its incoming one `in` (held still).
std::vector<std::pair<std::size_t, Held>> input_gradients(const Graph& g, const ModelStats& m,
                                                          const std::vector<bool>& needs_grad,
                                                          std::size_t k, const Held& in,
                                                          Replay& replay) {
  const Layer& l = g.layers()[k];
  std::vector<std::pair<std::size_t, Held>> made;
  for (const int ji : l.inputs) {
    const auto j = static_cast<std::size_t>(ji);
    if (!needs_grad[j]) continue;
    // a centre-cropped concat input (U-Net's crop-and-copy) is a slice of it: slice's
    // backward makes a zeroed gradient of the whole input
    const bool cropped = m.layers[j].output.size != m.layers[k].output.size;
    if (passes_through(l.op) || (l.op == Op::Concat && !cropped)) {
      replay.hold(in.storage);
      made.push_back({j, {in.storage, in.view || l.op == Op::Concat}});
    } else {
      made.push_back(
          {j, {replay.allocate(static_cast<long double>(m.layers[j].output_elements)), false}});
    }
  }
  return made;
}

}  // namespace

void autograd_liveness(const Graph& g, const std::vector<bool>& needs_grad,
                       const std::vector<int>& first_saver, ModelStats& m) {
  const auto& layers = g.layers();
  const std::size_t n = layers.size();
  for (std::size_t b = 0; b < n; ++b) {
    if (first_saver[b] >= 0)
      m.layers[static_cast<std::size_t>(first_saver[b])].released_elements +=
          m.layers[b].saved_elements;
  }
  Replay replay;
  std::vector<Held> grad(n);
  std::vector<bool> read(n, false);
  for (const auto& l : layers)
    for (const int j : l.inputs) read[static_cast<std::size_t>(j)] = true;
  for (std::size_t k = 1; k < n; ++k) {
    if (needs_grad[k] && !read[k])
      grad[k].storage = replay.allocate(static_cast<long double>(m.layers[k].output_elements));
  }
  for (std::size_t k = n; k-- > 1;) {
    const Held in = grad[k];
    if (in.storage < 0) continue;  // no gradient reaches it: autograd never runs it
    grad[k] = {};
    const long double pending = replay.live();
    long double peak = pending;
    std::vector<std::pair<std::size_t, Held>> made;
    if (modifies_a_view(g, needs_grad, k)) {
      const auto x = static_cast<long double>(m.layers[k].output_elements);
      const auto source = static_cast<std::size_t>(layers[k].inputs.front());
      made.push_back({source, {backward_through_a_view(replay, in, x, peak), false}});
    } else {
      made = input_gradients(g, m, needs_grad, k, in, replay);
      peak = replay.live();
      replay.release(in.storage);
    }
    for (const auto& [j, c] : made) {
      Held& old = grad[j];
      if (old.storage < 0) {
        old = c;
      } else if (!old.view && replay.sole(old.storage)) {
        replay.release(c.storage);  // old.add_(new)
      } else {
        const int sum = replay.allocate(static_cast<long double>(m.layers[j].output_elements));
        peak = std::max(peak, replay.live());
        replay.release(old.storage);
        replay.release(c.storage);
        old = {sum, false};
      }
    }
    if (peak > static_cast<long double>(std::int64_t{1} << 62))
      throw SizeLimitError("model '" + g.name() +
                           "': the activation gradients alive in the backward pass of layer '" +
                           m.layers[k].name + "' hold more than 2^62 elements (sizes too large)");
    m.layers[k].backward_gradient_elements = static_cast<std::int64_t>(peak);
    m.layers[k].pending_gradient_elements = static_cast<std::int64_t>(pending);
  }
}

}  // namespace paradise::model
