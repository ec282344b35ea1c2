// The activation gradients alive in each layer's backward pass and the saved activations
// released after it, derived by hand from PyTorch's autograd rules (torch 1.13 engine.cpp,
// input_buffer.cpp of torch 2.x; src/model/autograd_liveness.cpp). u = 8 x 16 x 16 = 2,048
// elements: the output of every 8-channel 3x3 convolution with padding 1 on an 8x16x16 input.
#include <gtest/gtest.h>

#include <vector>

#include "paradise/model/graph.hpp"
#include "paradise/model/stats.hpp"

namespace paradise::model {
namespace {

constexpr std::int64_t u = 8 * 16 * 16;

std::vector<std::int64_t> alive(const ModelStats& m) {
  std::vector<std::int64_t> v;
  for (const auto& l : m.layers) v.push_back(l.backward_gradient_elements);
  return v;
}

// input -> c1 -> relu r1 (a copy) -> c2 -> flatten -> fc (10) -> softmax_ce, last layer first:
//   loss: its output's gradient (10) and the logits' it makes (10): 20;
//   fc: 10 + the flattened input's, u; flatten hands the same tensor on: u;
//   c2: u in, u made for r1: 2u; r1: the same, 2u; c1: u in, none for the data: u.
// Released: the data after c1 (its saver), r1's output after r1 (it and c2 save it: r1 runs
// last), c2's output after fc (the flatten's view it saves), the log-probabilities after loss.
TEST(AutogradLiveness, AChainHoldsTwoGradientsAtMost) {
  Graph g("chain", 2);
  int x = g.conv(g.input(), "c1", 8, 3, 1, 1);
  x = g.act(x, "r1", Activation::ReLU, false);
  x = g.conv(x, "c2", 8, 3, 1, 1);
  x = g.flatten(x, "flat");
  x = g.dense(x, "fc", 10);
  g.loss(x);
  const auto m = analyze(g, Shape::image(8, 16, 16));
  EXPECT_EQ(alive(m), (std::vector<std::int64_t>{0, u, 2 * u, 2 * u, u, 10 + u, 20}));
  std::vector<std::int64_t> released;
  for (const auto& l : m.layers) released.push_back(l.released_elements);
  EXPECT_EQ(released, (std::vector<std::int64_t>{0, u, u, 0, 0, u, 10}));
}

// input -> c1 -> c2 -> c3 -> sum(c3, c1) -> c4: the sum hands its gradient to c3 and to c1
// (one tensor); c3 runs with it (2u: it and the one made for c2); c2 runs while c1's is
// still held: c1's (the sum's), c2's incoming and the one it makes for c1, 3u, then adds it
// into c1's in place (held alone by then).
TEST(AutogradLiveness, AResidualSkipsGradientIsHeldAcrossTheBlock) {
  Graph g("block", 2);
  const int c1 = g.conv(g.input(), "c1", 8, 3, 1, 1);
  int x = g.conv(c1, "c2", 8, 3, 1, 1);
  x = g.conv(x, "c3", 8, 3, 1, 1);
  x = g.add({x, c1}, "sum");
  g.conv(x, "c4", 8, 3, 1, 1);
  const auto m = analyze(g, Shape::image(8, 16, 16));
  EXPECT_EQ(alive(m), (std::vector<std::int64_t>{0, u, 3 * u, 2 * u, u, 2 * u}));
}

// input -> c1 -> c2 -> cat(c2, c1) (2u) -> c3: c3 makes the concat's gradient, 2u, beside
// its own (3u); the concat hands on two narrow views of it (2u alive); c2 runs with its view
// and makes c1's second part, u: 3u, the whole 2u held by c1's view. Adding into a view is
// never in place: a new tensor takes the sum, u more (4u), then the 2u and the part are
// freed; c1 runs with u.
TEST(AutogradLiveness, AConcatsGradientLivesWhileAViewOfItDoes) {
  Graph g("cat", 2);
  const int c1 = g.conv(g.input(), "c1", 8, 3, 1, 1);
  const int c2 = g.conv(c1, "c2", 8, 3, 1, 1);
  const int cat = g.concat({c2, c1}, "cat");
  g.conv(cat, "c3", 8, 3, 1, 1);
  const auto m = analyze(g, Shape::image(8, 16, 16));
  EXPECT_EQ(alive(m), (std::vector<std::int64_t>{0, u, 4 * u, 2 * u, 3 * u}));
}

// Two heads, input -> c1 -> c2 and c1 -> c3, neither read: backward() starts from both
// gradients (2u). c3 runs with its own, c2's waiting, and makes c1's: 3u; c2 likewise (c1's
// held, added to in place); c1 with u. Starting from the last layer alone left c2 unvisited.
TEST(AutogradLiveness, EveryUnreadOutputStartsTheBackwardPass) {
  Graph g("heads", 2);
  const int c1 = g.conv(g.input(), "c1", 8, 3, 1, 1);
  g.conv(c1, "c2", 8, 3, 1, 1);
  g.conv(c1, "c3", 8, 3, 1, 1);
  const auto m = analyze(g, Shape::image(8, 16, 16));
  EXPECT_EQ(alive(m), (std::vector<std::int64_t>{0, u, 3 * u, 3 * u}));
}

// input -> c1 -> norm -> activation -> c2, whose output starts the backward pass.
// An instance norm's output is a view (ATen's instance_norm reshapes its batch norm's output
// back by a view), so an in-place activation's backward is AsStridedBackward0 then
// CopySlices (torch/csrc/autograd/functions/tensor.cpp): c2 holds 2u (its own and the one it
// makes); the view's backward makes the base's gradient (2u) and frees the incoming one (u);
// CopySlices makes a gradient of the base, a clone of the slice and the activation's
// gradient of the clone: 4u, and hands the first on; the norm 2u; c1 u. In-place SiLU, which
// saves a copy of its input, runs the same nodes (torch 1.13: the output's grad_fn is
// AsStridedBackward0 over CopySlices for relu_, leaky_relu_, relu6_, silu_ and hardswish_).
// After a batch norm, whose output is a tensor of its own, or out of place: 2u.
TEST(AutogradLiveness, AnInPlaceActivationOnAnInstanceNormsViewHoldsFourGradients) {
  const auto peaks = [](bool instance, bool inplace, Activation a = Activation::LeakyReLU) {
    Graph g("view", 2);
    int x = g.conv(g.input(), "c1", 8, 3, 1, 1);
    x = instance ? g.instance_norm(x, "norm") : g.batch_norm(x, "norm");
    x = g.act(x, "act", a, inplace);
    g.conv(x, "c2", 8, 3, 1, 1);
    return alive(analyze(g, Shape::image(8, 16, 16)));
  };
  EXPECT_EQ(peaks(true, true), (std::vector<std::int64_t>{0, u, 2 * u, 4 * u, 2 * u}));
  EXPECT_EQ(peaks(true, true, Activation::SiLU),
            (std::vector<std::int64_t>{0, u, 2 * u, 4 * u, 2 * u}));
  EXPECT_EQ(peaks(true, false), (std::vector<std::int64_t>{0, u, 2 * u, 2 * u, 2 * u}));
  EXPECT_EQ(peaks(false, true), (std::vector<std::int64_t>{0, u, 2 * u, 2 * u, 2 * u}));
}

}  // namespace
}  // namespace paradise::model
