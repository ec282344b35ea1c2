// EfficientNet-B0 ... B4 (Tan & Le, ICML 2019) layer for layer as torchvision 0.14 builds
// them (torchvision/models/efficientnet.py): MBConv blocks with SiLU, squeeze-and-excitation
// and stochastic depth, names as torchvision's modules.
#include <cmath>
#include <string>

#include "zoo_builders.hpp"

namespace paradise::model::zoo_detail {
namespace {

// torchvision's _make_divisible(v, 8): the nearest multiple of 8, at least 8, and not more
// than 10% below v.
std::int64_t divisible_by_8(double v) {
  std::int64_t n = std::max<std::int64_t>(8, static_cast<std::int64_t>(v + 4) / 8 * 8);
  if (static_cast<double>(n) < 0.9 * v) n += 8;
  return n;
}

struct Stage {
  std::int64_t expand, kernel, stride, in, out, layers;
};

// EfficientNet-B0's stages (torchvision's MBConvConfig list, the paper's Table 1).
constexpr Stage kB0[7] = {{1, 3, 1, 32, 16, 1},  {6, 3, 2, 16, 24, 2},  {6, 5, 2, 24, 40, 2},
                          {6, 3, 2, 40, 80, 3},  {6, 5, 1, 80, 112, 3}, {6, 5, 2, 112, 192, 4},
                          {6, 3, 1, 192, 320, 1}};

// Conv2dNormActivation: convolution without bias, batch norm, SiLU in place (if `act`).
int conv_bn_silu(Graph& g, int x, const std::string& p, std::int64_t out, std::int64_t k,
                 std::int64_t s, std::int64_t groups, bool act) {
  x = g.conv(x, p + ".0", out, k, s, (k - 1) / 2, false, groups);
  x = g.batch_norm(x, p + ".1");
  return act ? g.act(x, p + ".2", Activation::SiLU, true) : x;
}

// torchvision's MBConv: expand 1x1, depthwise kxk, squeeze-and-excitation to in/4 channels
// (SiLU, sigmoid), project 1x1; stochastic depth and the residual when shapes allow.
int mbconv(Graph& g, int x, const std::string& p, const Stage& st, std::int64_t in,
           std::int64_t out, std::int64_t stride) {
  const std::int64_t expanded = divisible_by_8(static_cast<double>(in * st.expand));
  int part = 0;
  const auto sub = [&] { return p + ".block." + std::to_string(part++); };
  int y = x;
  if (expanded != in) y = conv_bn_silu(g, y, sub(), expanded, 1, 1, 1, true);
  y = conv_bn_silu(g, y, sub(), expanded, st.kernel, stride, expanded, true);
  const std::string se = sub();
  int s = g.adaptive_avg_pool(y, se + ".avgpool", 1);
  s = g.conv(s, se + ".fc1", std::max<std::int64_t>(1, in / 4), 1, 1, 0, true);
  s = g.act(s, se + ".activation", Activation::SiLU, false);
  s = g.conv(s, se + ".fc2", expanded, 1, 1, 0, true);
  s = g.act(s, se + ".scale_activation", Activation::Sigmoid, false);
  y = g.channel_scale(y, s, se + ".mul");
  y = conv_bn_silu(g, y, sub(), out, 1, 1, 1, false);
  if (stride != 1 || in != out) return y;
  // every residual block has a drop probability > 0 (0.2 * block index / blocks)
  y = g.stochastic_depth(y, p + ".stochastic_depth");
  return g.add({y, x}, p + ".add");
}

}  // namespace

// efficientnet_bN: width and depth multipliers of torchvision's efficientnet_b0 ... b4.
Graph efficientnet(const std::string& name, double width, double depth) {
  Graph g(name, 2);
  int x = g.input();
  x = conv_bn_silu(g, x, "features.0", divisible_by_8(kB0[0].in * width), 3, 2, 1, true);
  std::int64_t channels = 0;
  for (int stage = 0; stage < 7; ++stage) {
    const Stage& st = kB0[stage];
    std::int64_t in = divisible_by_8(static_cast<double>(st.in) * width);
    const std::int64_t out = divisible_by_8(static_cast<double>(st.out) * width);
    const auto layers =
        static_cast<std::int64_t>(std::ceil(static_cast<double>(st.layers) * depth));
    for (std::int64_t i = 0; i < layers; ++i) {
      const std::string p = "features." + std::to_string(stage + 1) + "." + std::to_string(i);
      x = mbconv(g, x, p, st, in, out, i == 0 ? st.stride : 1);
      in = out;
    }
    channels = out;
  }
  dropout_classifier(g, conv_bn_silu(g, x, "features.8", 4 * channels, 1, 1, 1, true));
  return g;
}

}  // namespace paradise::model::zoo_detail
