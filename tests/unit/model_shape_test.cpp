// Shape inference and per-layer counts, with expected values derived by hand from
// PyTorch's documented output-size formulas (torch.nn.Conv2d, MaxPool2d, ConvTranspose3d).
#include <gtest/gtest.h>

#include "paradise/core/error.hpp"
#include "paradise/model/graph.hpp"
#include "paradise/model/stats.hpp"
#include "paradise/model/zoo.hpp"

namespace paradise::model {
namespace {

const LayerStats& layer(const ModelStats& m, const std::string& name) {
  for (const auto& l : m.layers) {
    if (l.name == name) return l;
  }
  throw std::runtime_error("no layer " + name);
}

TEST(ShapeInference, ConvWithStrideAndPadding) {
  Graph g("t", 2);
  g.conv(g.input(), "c", 64, 7, 2, 3);
  const auto m = analyze(g, Shape::image(3, 224, 224));
  // floor((224 + 2*3 - 7) / 2) + 1 = 112
  EXPECT_EQ(layer(m, "c").output, Shape::image(64, 112, 112));
  // 3*64*49 weights, no bias
  EXPECT_EQ(layer(m, "c").params, 9408);
  // each of 64*112*112 outputs sums 3*49 products
  EXPECT_EQ(layer(m, "c").macs, 64LL * 112 * 112 * 147);
}

TEST(ShapeInference, DilationWidensTheKernel) {
  Graph g("t", 2);
  Layer l;
  l.name = "c";
  l.op = Op::Conv;
  l.inputs = {g.input()};
  l.out_channels = 1;
  l.window = Window::cube(3, 1, 0, 2);
  g.add(l);
  // effective kernel 2*(3-1)+1 = 5: 10 - 5 + 1 = 6
  EXPECT_EQ(layer(analyze(g, Shape::image(1, 10, 10)), "c").output, Shape::image(1, 6, 6));
}

TEST(ShapeInference, ThreeDimensionalStridedConv) {
  Graph g("t", 3);
  g.conv(g.input(), "c", 8, 3, 2, 1);
  // floor((16 + 2 - 3) / 2) + 1 = 8 along each of D, H, W
  EXPECT_EQ(layer(analyze(g, Shape::volume(4, 16, 16, 16)), "c").output, Shape::volume(8, 8, 8, 8));
}

TEST(ShapeInference, GroupedAndDepthwiseConvolutions) {
  Graph g("t", 2);
  const int x = g.conv(g.input(), "grouped", 16, 3, 1, 1, false, 4);
  g.conv(x, "depthwise", 16, 3, 1, 1, false, 16);
  const auto m = analyze(g, Shape::image(8, 5, 5));
  // grouped: (8/4) input channels per group x 16 filters x 9 = 288 weights;
  // MACs: 16*5*5 outputs x 2*9 products = 7200
  EXPECT_EQ(layer(m, "grouped").params, 288);
  EXPECT_EQ(layer(m, "grouped").macs, 7200);
  // depthwise: one 3x3 filter per channel: 16*9 = 144 weights, 16*25*9 = 3600 MACs
  EXPECT_EQ(layer(m, "depthwise").params, 144);
  EXPECT_EQ(layer(m, "depthwise").macs, 3600);
}

TEST(ShapeInference, GroupsMustDivideChannels) {
  Graph g("t", 2);
  g.conv(g.input(), "bad", 16, 3, 1, 1, false, 3);
  EXPECT_THROW(analyze(g, Shape::image(8, 5, 5)), InputError);
}

TEST(ShapeInference, MaxPoolCeilMode) {
  Graph g("t", 2);
  const int x = g.input();
  g.max_pool(x, "floor", 3, 2);
  g.max_pool(x, "ceil", 3, 2, 0, true);
  const auto m = analyze(g, Shape::image(1, 6, 6));
  // floor((6-3)/2)+1 = 2; ceil((6-3)/2)+1 = 3 (last window starts at 4 < 6)
  EXPECT_EQ(layer(m, "floor").output, Shape::image(1, 2, 2));
  EXPECT_EQ(layer(m, "ceil").output, Shape::image(1, 3, 3));
  // int64 indices of every output element are saved: 8 bytes x 4
  EXPECT_EQ(layer(m, "floor").saved_fixed_bytes, 32);
}

TEST(ShapeInference, TransposedConvolutionDoublesTheVolume) {
  Graph g("t", 3);
  g.conv_transpose(g.input(), "up", 256, 2, 2);
  const auto m = analyze(g, Shape::volume(512, 8, 8, 8));
  // (8-1)*2 + (2-1) + 1 = 16
  EXPECT_EQ(layer(m, "up").output, Shape::volume(256, 16, 16, 16));
  // 512*256*8 weights + 256 bias; every input element scatters to 256*8 outputs
  EXPECT_EQ(layer(m, "up").params, 512 * 256 * 8 + 256);
  EXPECT_EQ(layer(m, "up").macs, 512LL * 512 * 256 * 8);
}

TEST(ShapeInference, ConcatSumsChannelsAndAddNeedsEqualShapes) {
  Graph g("t", 2);
  const int x = g.input();
  const int a = g.conv(x, "a", 4, 1);
  const int b = g.conv(x, "b", 6, 1);
  g.concat({a, b}, "cat");
  g.add({a, b}, "sum");
  try {
    analyze(g, Shape::image(3, 8, 8));
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("layer 'sum'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4x8x8"), std::string::npos) << e.what();
  }
}

TEST(ShapeInference, DenseNeedsAFlatInput) {
  Graph g("t", 2);
  g.dense(g.input(), "fc", 10);
  EXPECT_THROW(analyze(g, Shape::image(3, 4, 4)), InputError);
}

TEST(ShapeInference, ZooModelReshapesToAnyResolution) {
  const Graph g = build_zoo_model("resnet50");
  const auto m = analyze(g, Shape::image(3, 300, 300));
  // 300 -> conv1 150 -> maxpool 75 -> layer2 38 -> layer3 19 -> layer4 10
  EXPECT_EQ(layer(m, "layer4.2.relu").output, Shape::image(2048, 10, 10));
  EXPECT_EQ(layer(m, "fc").output, Shape::flat(1000));
  // parameters do not depend on the resolution: torchvision's 25,557,032
  EXPECT_EQ(m.params(), 25557032);
}

TEST(ShapeInference, TooSmallInputNamesTheLayer) {
  const Graph g = build_zoo_model("cosmoflow");
  try {
    analyze(g, Shape::volume(4, 16, 16, 16));
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("model 'cosmoflow': layer '"), std::string::npos) << what;
    EXPECT_NE(what.find("too small"), std::string::npos) << what;
  }
}

TEST(ShapeInference, WrongInputRankIsAnError) {
  EXPECT_THROW(analyze(build_zoo_model("resnet18"), Shape::volume(3, 8, 224, 224)), InputError);
}

TEST(ShapeInference, CosmoflowAt512HasTheParadlFirstLayer) {
  const auto m = analyze(build_zoo_model("cosmoflow"), Shape::volume(4, 512, 512, 512));
  // ParaDL's COSMOFLOW.net: CONV_1 4x512^3 -> 16x510^3 with 4x16x3x3x3 weights
  EXPECT_EQ(layer(m, "conv1").output, Shape::volume(16, 510, 510, 510));
  EXPECT_EQ(layer(m, "conv1").params, 4 * 16 * 27 + 16);
}

TEST(ShapeInference, Unet3dHasCicekParameterCount) {
  // Cicek et al. 2016, Sec. 3: "The architecture has 19069955 parameters in total." Their
  // Caffe model has a bias on every 3^3 and 1^3 convolution (1,440 analysis + 896
  // synthesis + 3 output = 2,339) and batch norm without learned parameters. Ours, as
  // PyTorch builds it, drops the biases that batch norm cancels and learns the BN affine
  // (2 x 2,336 channels = 4,672), and keeps the biases of the up-convolutions (896) and
  // of the output convolution (3).
  const auto m = analyze(build_zoo_model("unet3d"), Shape::volume(3, 64, 64, 64));
  EXPECT_EQ(m.params(), 19069955 - 2339 + 4672 + 896 + 3);
  EXPECT_EQ(m.layers.back().output, Shape::volume(3, 64, 64, 64));
}

TEST(ShapeInference, Unet3dRejectsSizesThatDoNotHalveThreeTimes) {
  EXPECT_THROW(analyze(build_zoo_model("unet3d"), Shape::volume(3, 60, 60, 60)), InputError);
}

TEST(SavedForBackward, InplaceReluSharesTheConvOutput) {
  Graph g("t", 2);
  int x = g.conv(g.input(), "c1", 4, 3, 1, 1);
  x = g.act(x, "r1");  // in-place: saves its output, which is c1's buffer
  g.conv(x, "c2", 4, 3, 1, 1);
  const auto m = analyze(g, Shape::image(2, 8, 8));
  // saved: the input (c1 saves it, 2*64) and c1's output buffer (4*64), once
  EXPECT_EQ(m.saved_elements(), 2 * 64 + 4 * 64);
  EXPECT_EQ(layer(m, "r1").saved_elements, 0);
}

TEST(FlopConvention, FlopsAreTwiceMacsPlusBias) {
  Graph g("t", 2);
  g.conv(g.input(), "c", 8, 3, 1, 1, true);
  const auto m = analyze(g, Shape::image(4, 6, 6));
  const auto& c = layer(m, "c");
  EXPECT_DOUBLE_EQ(c.forward_flops, 2.0 * static_cast<double>(c.macs) + 8 * 36);
  // the first layer needs no gradient with respect to the data
  EXPECT_DOUBLE_EQ(c.backward_data_flops, 0.0);
  EXPECT_DOUBLE_EQ(c.backward_weight_flops, 2.0 * static_cast<double>(c.macs) + 8 * 36);
}

// A spatial split's halo rows by hand (docs/cost-model.md §spatial-halo with strides). ResNet's
// stem, k=7 s=2 p=3: output row o reads x rows 2o-3 .. 2o+3, so a tile of x rows [a, a+t) (a, t
// even), making output rows a/2 .. (a+t)/2 - 1, reads 3 rows below (a-3) and 2 above
// (a+t+1); its dL/dx tile needs dL/dy rows o with 2o+3 >= a and 2o-3 <= a+t-1: from a/2 - 1
// to (a+t)/2 + 1, 1 below and 2 above. A 'same' 3x3 reads 1 and 1 both ways; a 2x2 pool of
// stride 2 none; a 3x3 pool of stride 2 without padding 0 below and 1 above, and 1 row of
// dL/dy below. A transposed 3x3 of stride 2, padding 1, swaps its convolution's two.
TEST(WindowHalos, RowsBelowAndAboveATileByHand) {
  const auto rows = [](const Window& w, bool transposed) {
    const auto h = window_halos(w, 2, transposed);
    return std::array<std::int64_t, 4>{h.x.below[0], h.x.above[0], h.dy.below[0], h.dy.above[0]};
  };
  using R = std::array<std::int64_t, 4>;
  EXPECT_EQ(rows(Window::cube(7, 2, 3), false), (R{3, 2, 1, 2}));
  EXPECT_EQ(rows(Window::cube(3, 1, 1), false), (R{1, 1, 1, 1}));
  EXPECT_EQ(rows(Window::cube(2, 2, 0), false), (R{0, 0, 0, 0}));
  EXPECT_EQ(rows(Window::cube(3, 2, 0), false), (R{0, 1, 1, 0}));
  EXPECT_EQ(rows(Window::cube(3, 2, 1), true), (R{0, 1, 1, 0}));
  EXPECT_EQ(rows(Window::cube(3, 1, 2, 2), false), (R{2, 2, 2, 2}));  // dilated: e = 5
  // on a tile that is not a multiple of the stride (k=3 s=2 p=1, a tile of 5 rows: its last
  // output row, 2, reads rows 3..5): e - 1 - p = 1 row above, ceil((e-1-p)/s) = 1 of dL/dy
  // below; the transposed convolution's own output tiles line up, so the same as before
  const auto odd = window_halos(Window::cube(3, 2, 1), 2, false);
  EXPECT_EQ(&odd.x_rows(0, 5), &odd.x_odd);
  EXPECT_EQ(&odd.x_rows(0, 4), &odd.x);
  EXPECT_EQ(odd.x_odd.above[0], 1);
  EXPECT_EQ(odd.dy_odd.below[0], 1);
  const auto up = window_halos(Window::cube(3, 2, 1), 2, true);
  EXPECT_EQ(&up.x_rows(0, 5), &up.x);
  const auto flat = window_halos(Window{{3, 1, 1}, {1, 1, 1}, {1, 0, 0}}, 2, false);
  EXPECT_EQ(flat.x.below[1] + flat.x.above[1] + flat.dy.below[1] + flat.dy.above[1], 0);
}

}  // namespace
}  // namespace paradise::model
