// Segmentation networks: Ronneberger's 2-D U-Net, MLPerf's 3-D U-Net (KiTS19) and nnU-Net
// as NVIDIA's DeepLearningExamples configure it.
#include <algorithm>
#include <string>
#include <vector>

#include "zoo_builders.hpp"

namespace paradise::model::zoo_detail {

// U-Net (Ronneberger, Fischer & Brox, MICCAI 2015, Fig. 1): 3x3 unpadded convolutions with
// bias and ReLU, 64-128-256-512-1024 filters, 2x2 max pooling, 2x2 up-convolutions halving
// the channels, each joined with the centre-cropped encoder map, and a 1x1 convolution to 2
// classes: 1x572x572 in, 2x388x388 out. The paper's drop-out at the end of the contracting
// path is left out (a training option, not in its figure).
Graph unet2d() {
  Graph g("unet2d", 2);
  int x = g.input();
  const auto block = [&](int in, const std::string& p, std::int64_t out) {
    int y = g.act(g.conv(in, p + ".conv1", out, 3, 1, 0, true), p + ".relu1");
    return g.act(g.conv(y, p + ".conv2", out, 3, 1, 0, true), p + ".relu2");
  };
  std::vector<int> skips;
  std::int64_t width = 64;
  for (int level = 1; level <= 4; ++level, width *= 2) {
    const std::string p = "down" + std::to_string(level);
    x = block(x, p, width);
    skips.push_back(x);
    x = g.max_pool(x, p + ".pool", 2, 2);
  }
  x = block(x, "bottom", width);
  for (int level = 4; level >= 1; --level) {
    width /= 2;
    const std::string p = "up" + std::to_string(level);
    x = g.conv_transpose(x, p + ".upconv", width, 2, 2);
    x = g.crop_concat({skips[static_cast<std::size_t>(level - 1)], x}, p + ".cat");
    x = block(x, p, width);
  }
  x = g.conv(x, "out", 2, 1, 1, 0, true);
  g.loss(x);
  return g;
}

// NVIDIA DeepLearningExamples' UNet_Medical (TensorFlow2/Segmentation/UNet_Medical/model/
// layers.py, unet.py): Ronneberger's contracting path, but each expanding step's
// up-convolution is a 3x3 transposed convolution with stride 2, 'same' padding (PyTorch's
// p=1, output_padding=1), bias and ReLU, run at the end of the block below it; drop-out 0.5
// after the bottleneck's convolutions; the encoder maps centre-cropped and concatenated
// after the upsampled ones. 1x572x572 in, 2x388x388 out.
Graph unet2d_medical() {
  Graph g("unet2d_medical", 2);
  int x = g.input();
  const auto convs = [&](int in, const std::string& p, std::int64_t out) {
    int y = g.act(g.conv(in, p + ".conv1", out, 3, 1, 0, true), p + ".relu1");
    return g.act(g.conv(y, p + ".conv2", out, 3, 1, 0, true), p + ".relu2");
  };
  const auto up = [&](int in, const std::string& p, std::int64_t out) {
    Layer l;
    l.name = p + ".conv_transpose";
    l.op = Op::ConvTranspose;
    l.inputs = {in};
    l.out_channels = out;
    l.window = Window::cube(3, 2, 1);
    l.window.output_padding = {1, 1, 1};
    l.bias = true;
    return g.act(g.add(l), p + ".relu_up");
  };
  std::vector<int> skips;
  const char* names[4] = {"input_block", "down_block_0", "down_block_1", "down_block_2"};
  std::int64_t width = 64;
  for (int level = 0; level < 4; ++level, width *= 2) {
    x = convs(x, names[level], width);
    skips.push_back(x);
    x = g.max_pool(x, std::string(names[level]) + ".maxpool", 2, 2);
  }
  x = g.dropout(convs(x, "bottleneck", width), "bottleneck.dropout");
  x = up(x, "bottleneck", width / 2);
  for (int level = 3; level >= 1; --level) {
    width /= 2;
    const std::string p = "up_block_" + std::to_string(3 - level);
    x = g.crop_concat({x, skips[static_cast<std::size_t>(level)]}, p + ".cat");
    x = up(convs(x, p, width), p, width / 2);
  }
  x = g.crop_concat({x, skips[0]}, "output_block.cat");
  x = convs(x, "output_block", 64);
  x = g.conv(x, "output_block.conv3", 2, 1, 1, 0, true);
  g.loss(x);
  return g;
}

// MLPerf Training's 3-D U-Net for KiTS19 (mlcommons/training, image_segmentation/pytorch/
// model/unet3d.py and layers.py): filters 32-64-128-256-320, each block two 3^3 convolutions
// without bias, affine instance norm and LeakyReLU(0.01) (one shared module, out of place),
// downsampling by a strided convolution, a 320-channel bottleneck, 2^3 transposed
// convolutions with bias, concatenation with the skip, a 1^3 convolution to 3 classes; the
// loss Dice (softmax, one-hot target) plus cross-entropy (losses.py: DiceCELoss).
Graph mlperf_unet3d() {
  Graph g("mlperf_unet3d", 3);
  int x = g.input();
  const auto conv_norm_act = [&](int in, const std::string& p, std::int64_t out,
                                 std::int64_t stride) {
    int y = g.conv(in, p + ".0", out, 3, stride, 1);
    y = g.instance_norm(y, p + ".1", true);
    return g.act(y, p + ".2", Activation::LeakyReLU, false);
  };
  const auto block = [&](int in, const std::string& p, std::int64_t out, std::int64_t stride) {
    return conv_norm_act(conv_norm_act(in, p + ".conv1", out, stride), p + ".conv2", out, 1);
  };
  const std::int64_t filters[5] = {32, 64, 128, 256, 320};
  x = block(x, "input_block", filters[0], 1);
  std::vector<int> skips{x};
  for (int i = 0; i < 4; ++i) {
    x = block(x, "downsample." + std::to_string(i), filters[i + 1], 2);
    skips.push_back(x);
  }
  x = block(x, "bottleneck", filters[4], 2);
  for (int i = 0; i < 5; ++i) {
    const std::string p = "upsample." + std::to_string(i);
    const std::int64_t out = filters[i == 0 ? 4 : 4 - i];  // 320, 256, 128, 64, 32
    x = g.conv_transpose(x, p + ".upsample_conv.0", out, 2, 2);
    x = g.concat({x, skips[static_cast<std::size_t>(4 - i)]}, p + ".cat");
    x = block(x, p, out, 1);
  }
  x = g.conv(x, "output.conv.0", 3, 1, 1, 0, true);
  g.loss(x, "loss.dice", Op::DiceLoss);
  g.loss(x, "loss.cross_entropy", Op::SoftmaxCrossEntropy);
  return g;
}

// nnU-Net (Isensee et al., Nature Methods 2021) as NVIDIA DeepLearningExamples train it
// (PyTorch/Segmentation/nnUNet: nnunet/nn_unet.py builds MONAI's DynUNet; the defaults
// depth 5, min_fmap 4, no deep supervision, no residual blocks; BraTS Task01: 4 modalities,
// 4 labels, isotropic spacing, patches 192x160 in 2-D and 128^3 in 3-D): six levels, strides
// 1 then 2 five times (get_unet_params on those patches), filters 32-64-128-256 then 320
// (3-D) or 512 (2-D) twice (DynUNet's default), each block two 3^k convolutions without
// bias, affine instance norm and LeakyReLU(0.01) in place; transposed convolutions with bias
// (trans_bias), the skip concatenated after; a 1^k convolution with bias; the loss Dice
// (softmax, one-hot target) plus cross-entropy (nnunet/loss.py).
Graph nnunet(const std::string& name, int rank) {
  Graph g(name, rank);
  int x = g.input();
  const std::int64_t widest = rank == 3 ? 320 : 512;
  const std::int64_t filters[6] = {32, 64, 128, 256, std::min<std::int64_t>(512, widest), widest};
  const auto block = [&](int in, const std::string& p, std::int64_t out, std::int64_t stride) {
    int y = g.conv(in, p + ".conv1.conv", out, 3, stride, 1);
    y = g.act(g.instance_norm(y, p + ".norm1", true), p + ".lrelu1", Activation::LeakyReLU);
    y = g.conv(y, p + ".conv2.conv", out, 3, 1, 1);
    return g.act(g.instance_norm(y, p + ".norm2", true), p + ".lrelu", Activation::LeakyReLU);
  };
  x = block(x, "input_block", filters[0], 1);
  std::vector<int> skips{x};
  for (int i = 1; i < 5; ++i) {
    x = block(x, "downsamples." + std::to_string(i - 1), filters[i], 2);
    skips.push_back(x);
  }
  x = block(x, "bottleneck", filters[5], 2);
  for (int i = 0; i < 5; ++i) {
    const std::string p = "upsamples." + std::to_string(i);
    const std::int64_t out = filters[4 - i];
    x = g.conv_transpose(x, p + ".transp_conv.conv", out, 2, 2);
    x = g.concat({x, skips[static_cast<std::size_t>(4 - i)]}, p + ".cat");
    x = block(x, p + ".conv_block", out, 1);
  }
  x = g.conv(x, "output_block.conv.conv", 4, 1, 1, 0, true);
  g.loss(x, "loss.dice", Op::DiceLoss);
  g.loss(x, "loss.cross_entropy", Op::SoftmaxCrossEntropy);
  return g;
}

}  // namespace paradise::model::zoo_detail
