// The layer types of issue 38 (normalisations, the squeeze-and-excitation multiply,
// hardswish, linear upsampling, stochastic depth, U-Net's cropped concatenation, MSE, L1
// and Dice losses), read from model files: parameters, FLOPs and saved-for-backward bytes
// derived by hand from PyTorch's definitions (torch 1.13 derivatives.yaml; the saved
// tensors were listed with torch.autograd.graph.saved_tensors_hooks on each op alone).
// Every model here is 8x6x10 unless said: n = 480 elements per sample.
#include <gtest/gtest.h>

#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/model/model_file.hpp"
#include "paradise/model/stats.hpp"
#include "paradise/model/zoo.hpp"

namespace paradise::model {
namespace {

ModelStats stats_of(const std::string& layers, const std::string& input = "8x6x10") {
  std::istringstream in("model t\ninput " + input + "\n" + layers);
  const ModelFile f = parse_model_file(in, "t.model");
  return analyze(f.graph, f.default_input);
}

std::string error_of(const std::string& layers, const std::string& input = "8x6x10") {
  try {
    stats_of(layers, input);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const LayerStats& layer(const ModelStats& m, const std::string& name) {
  for (const auto& l : m.layers)
    if (l.name == name) return l;
  throw std::runtime_error("no layer " + name);
}

// A 1x1 convolution first, so that the layer under test computes an input gradient.
const std::string kConv = "c conv out=8 k=1\n";

TEST(NormLayers, GroupNormKeepsItsInputAndTwoFloatsPerGroup) {
  const auto m = stats_of(kConv + "gn groupnorm groups=4\n");
  const auto& gn = layer(m, "gn");
  EXPECT_EQ(gn.params, 16);                         // a scale and a shift per channel: 2 * 8
  EXPECT_EQ(layer(m, "c").saved_elements, 480);     // native_group_norm saves its input
  EXPECT_EQ(gn.saved_fixed_bytes, 32);              // mean and rstd [N, 4] in float: 2 * 4 * 4 B
  EXPECT_DOUBLE_EQ(gn.forward_flops, 1920);         // 4n, as batch norm
  EXPECT_DOUBLE_EQ(gn.backward_data_flops, 1920);   // 4n
  EXPECT_DOUBLE_EQ(gn.backward_weight_flops, 960);  // 2n: sums of dy and dy * xhat
  const auto plain = layer(stats_of(kConv + "gn groupnorm groups=8 affine=0\n"), "gn");
  EXPECT_EQ(plain.params, 0);
  EXPECT_DOUBLE_EQ(plain.backward_weight_flops, 0);  // nothing to learn
  EXPECT_NE(error_of(kConv + "gn groupnorm groups=3\n").find("must divide the channels (8)"),
            std::string::npos);
  EXPECT_NE(error_of(kConv + "gn groupnorm\n").find("needs groups="), std::string::npos);
}

TEST(NormLayers, InstanceNormHasNoAffineByDefaultAsInPytorch) {
  const auto plain = layer(stats_of(kConv + "in instancenorm\n"), "in");
  EXPECT_EQ(plain.params, 0);              // nn.InstanceNorm2d(affine=False)
  EXPECT_EQ(plain.saved_fixed_bytes, 64);  // save_mean and save_invstd: 2 * 8 channels * 4 B
  const auto m = stats_of(kConv + "in instancenorm affine=1\n");
  EXPECT_EQ(layer(m, "in").params, 16);
  // + the weight repeated for every sample (weight.repeat(N), a new tensor): 8 * 4 B
  EXPECT_EQ(layer(m, "in").saved_fixed_bytes, 96);
  EXPECT_EQ(layer(m, "c").saved_elements, 480);
  EXPECT_NE(error_of("f flatten\nin instancenorm\n").find("needs a spatial input"),
            std::string::npos);
}

TEST(NormLayers, LayerNormNormalisesTheChannelsAtEveryPosition) {
  const auto m = stats_of(kConv + "ln layernorm\n");
  EXPECT_EQ(layer(m, "ln").params, 16);  // nn.LayerNorm(8): weight and bias of 8
  // native_layer_norm saves its input, and mean and rstd per position: 2 * 6*10 * 4 B
  EXPECT_EQ(layer(m, "ln").saved_fixed_bytes, 480);
  EXPECT_EQ(layer(m, "c").saved_elements, 480);
}

TEST(ChannelScale, TheSqueezeExcitationMultiplyKeepsBothFactors) {
  // a = c1 + c2 is kept by nobody else (add saves nothing), sc by nobody else (a convolution
  // keeps its input): what they keep is the multiply's (mul saves self and other)
  const auto m = stats_of(
      "c1 conv out=8 k=1\nc2 conv out=8 k=1 from=input\na add from=c1,c2\n"
      "p adaptive_avgpool from=input\nsc conv out=8 k=1\nx channel_scale from=a,sc\n");
  EXPECT_EQ(layer(m, "a").saved_elements, 480);
  EXPECT_EQ(layer(m, "sc").saved_elements, 8);  // [8, 1, 1]
  const auto& x = layer(m, "x");
  EXPECT_EQ(x.output, Shape::image(8, 6, 10));
  EXPECT_EQ(x.params, 0);
  EXPECT_DOUBLE_EQ(x.forward_flops, 480);         // one product per element
  EXPECT_DOUBLE_EQ(x.backward_data_flops, 1440);  // dx = dy * s (n), ds = sum dy * x (2n)
  EXPECT_NE(error_of(kConv + "x channel_scale from=c,c\n").find("one element per channel"),
            std::string::npos);
  EXPECT_NE(error_of(kConv + "x channel_scale\n").find("needs from=X,S"), std::string::npos);
}

TEST(Activations, HardswishKeepsItsInputAndInPlaceACopy) {
  const auto m = stats_of(kConv + "h hardswish\n");
  EXPECT_EQ(layer(m, "c").saved_elements, 480);  // hardswish_backward(grad, self)
  EXPECT_EQ(layer(m, "h").saved_elements, 0);
  EXPECT_DOUBLE_EQ(layer(m, "h").forward_flops, 1920);  // 4n, as silu
  EXPECT_DOUBLE_EQ(layer(m, "h").backward_data_flops, 960);
  // hardswish_ keeps a copy of the original input: its output is a buffer of its own
  const auto in_place = stats_of(kConv + "h hardswish inplace=1\n");
  EXPECT_EQ(layer(in_place, "h").buffer_layer, 2);
}

TEST(Upsample, LinearModesInterpolateTwoToTheRankCorners) {
  const auto m = stats_of(kConv + "u upsample scale=2 mode=bilinear\n");
  const auto& u = layer(m, "u");
  EXPECT_EQ(u.output, Shape::image(8, 12, 20));
  EXPECT_DOUBLE_EQ(u.forward_flops, 2.0 * 4 * 1920);  // 4 corners, a multiply and an add
  EXPECT_DOUBLE_EQ(u.backward_data_flops, 2.0 * 4 * 1920);
  EXPECT_EQ(layer(m, "c").saved_elements, 0);  // upsample_bilinear2d keeps only sizes
  const auto v =
      layer(stats_of("c conv out=2 k=1\nu upsample scale=2 mode=trilinear\n", "2x4x4x4"), "u");
  EXPECT_EQ(v.output, Shape::volume(2, 8, 8, 8));
  EXPECT_DOUBLE_EQ(v.forward_flops, 2.0 * 8 * 1024);  // 8 corners of 2*8^3 outputs
  const auto nearest = layer(stats_of(kConv + "u upsample scale=2\n"), "u");
  EXPECT_DOUBLE_EQ(nearest.forward_flops, 0);  // a copy
  EXPECT_DOUBLE_EQ(nearest.backward_data_flops, 1920);
  EXPECT_NE(error_of(kConv + "u upsample scale=2 mode=trilinear\n")
                .find("expected nearest or "
                      "bilinear"),
            std::string::npos);
}

TEST(Losses, MseKeepsItsInputAndTheFloatTarget) {
  const auto m = stats_of(kConv + "l mse_loss\n");
  EXPECT_EQ(layer(m, "c").saved_elements, 480);         // mse_loss_backward(grad, self, target)
  EXPECT_EQ(layer(m, "l").saved_fixed_bytes, 1920);     // the target: 480 floats
  EXPECT_DOUBLE_EQ(layer(m, "l").forward_flops, 1440);  // difference, square, sum: 3n
  EXPECT_DOUBLE_EQ(layer(m, "l").backward_data_flops, 960);
}

TEST(Losses, L1KeepsTheDifferenceItMakes) {
  // torch 1.13's l1_loss is (input - target).abs().mean(): abs keeps the difference
  const auto m = stats_of(kConv + "l l1_loss\n");
  EXPECT_EQ(layer(m, "c").saved_elements, 0);
  EXPECT_EQ(layer(m, "l").saved_elements, 480);
  EXPECT_EQ(layer(m, "l").saved_fixed_bytes, 0);
}

TEST(Losses, DiceKeepsItsProbabilitiesAndTheOneHotTarget) {
  // softmax keeps its output, the product with the one-hot target keeps the target
  const auto m = stats_of(kConv + "l dice_loss\n");
  EXPECT_EQ(layer(m, "l").saved_elements, 480);
  EXPECT_EQ(layer(m, "l").saved_fixed_bytes, 1920);
  EXPECT_DOUBLE_EQ(layer(m, "l").forward_flops, 2880);  // softmax 3n, product n, sums 2n
  EXPECT_DOUBLE_EQ(layer(m, "l").backward_data_flops, 1920);
}

TEST(StochasticDepth, KeepsOneFloatPerSample) {
  // torchvision's stochastic_depth, mode "row": input * noise, noise [N, 1, 1, 1]
  const auto m = stats_of(kConv + "sd stochastic_depth\n");
  EXPECT_EQ(layer(m, "sd").saved_fixed_bytes, 4);
  EXPECT_EQ(layer(m, "c").saved_elements, 0);
  EXPECT_DOUBLE_EQ(layer(m, "sd").forward_flops, 480);
  EXPECT_DOUBLE_EQ(layer(m, "sd").backward_data_flops, 480);
}

TEST(CropConcat, CropsToTheSmallestInputAndMakesTheCroppedOnesGradient) {
  // a: 4x10x10 (400, a valid 3x3 convolution of 12x12); b: 4x12x12 (576)
  const std::string net = "a conv out=4 k=3\nb conv out=4 k=1 from=input\n";
  const auto m = stats_of(net + "x concat crop=1 from=a,b\n", "4x12x12");
  EXPECT_EQ(layer(m, "x").output, Shape::image(8, 10, 10));
  // x's backward: its gradient (800) hands a a narrow view, but b's slice needs a zeroed
  // gradient of all 576 elements (slice_backward): 800 + 576 alive
  EXPECT_EQ(layer(m, "x").backward_gradient_elements, 1376);
  EXPECT_NE(error_of(net + "x concat from=a,b\n", "4x12x12").find("differ in spatial size"),
            std::string::npos);
}

TEST(ConvPadding, PendPadsTheEndAsTensorflowsSameDoesForAnEvenKernel) {
  // 'same' with k=2: 0 zeros before, 1 after; the output keeps the 6x10 extent
  const auto m = stats_of("c conv out=4 k=2 p=0 pend=1\n");
  EXPECT_EQ(layer(m, "c").output, Shape::image(4, 6, 10));
  EXPECT_EQ(layer(m, "c").macs, 4LL * 6 * 10 * 8 * 4);  // every output sums 8 channels x 2x2
  EXPECT_EQ(layer(stats_of("c conv out=4 k=2\n"), "c").output, Shape::image(4, 5, 9));
  EXPECT_NE(error_of("c conv out=4 k=3 p=1 pend=0\n").find("must be at least p"),
            std::string::npos);
}

TEST(ZooSegmentation, Unet2dMapsRonnebergers572InputTo388) {
  // Ronneberger et al. 2015, Fig. 1: 572x572 in, 388x388 out; the first crop takes the
  // 64x568x568 map to the 56x56 of the deepest up-convolution
  const auto m = analyze(build_zoo_model("unet2d"), Shape::image(1, 572, 572));
  EXPECT_EQ(layer(m, "out").output, Shape::image(2, 388, 388));
  EXPECT_EQ(layer(m, "up4.cat").output, Shape::image(1024, 56, 56));
  EXPECT_EQ(layer(m, "up1.cat").output, Shape::image(128, 392, 392));
}

TEST(ZooSegmentation, MlperfCosmoflowKeepsTheExtentThroughItsSameConvolutions) {
  // cosmo.yaml: 4x128^3, five 'same' 2^3 convolutions each halved by a 2^3 max pool:
  // 512 x 4^3 = 32,768 features into the first dense layer
  const auto m = analyze(build_zoo_model("mlperf_cosmoflow"), Shape::volume(4, 128, 128, 128));
  EXPECT_EQ(layer(m, "conv1").output, Shape::volume(32, 128, 128, 128));
  EXPECT_EQ(layer(m, "flatten").output, Shape::flat(32768));
}

}  // namespace
}  // namespace paradise::model
