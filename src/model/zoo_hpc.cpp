// Scientific and deep CIFAR networks: CosmoFlow, 3D U-Net, pre-activation ResNets.
#include <string>

#include "zoo_builders.hpp"

namespace paradise::model::zoo_detail {

// Pre-activation ResNets for CIFAR (He et al., "Identity Mappings in Deep Residual
// Networks", ECCV 2016): depth 6n+2 with basic blocks (ResNet-110: n = 18) or 9n+2 with
// bottleneck blocks (ResNet-1001: n = 111); widths 16-32-64 (x4 for bottlenecks).
// The projection shortcut takes the pre-activated input, as in the authors' code.
Graph preact_resnet_cifar(const std::string& name, int depth) {
  const bool bottleneck = depth >= 164;
  const int n = bottleneck ? (depth - 2) / 9 : (depth - 2) / 6;
  const std::int64_t expansion = bottleneck ? 4 : 1;
  Graph g(name, 2);
  int x = g.input();
  x = g.conv(x, "conv1", 16, 3, 1, 1);
  std::int64_t in = 16;
  for (int stage = 0; stage < 3; ++stage) {
    const std::int64_t mid = std::int64_t{16} << stage;
    const std::int64_t out = mid * expansion;
    for (int b = 0; b < n; ++b) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(b);
      const std::int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
      const int pre = g.act(g.batch_norm(x, p + ".bn1"), p + ".relu1", Activation::ReLU, false);
      const int shortcut =
          (stride != 1 || in != out) ? g.conv(pre, p + ".shortcut", out, 1, stride) : x;
      int y = 0;
      if (bottleneck) {
        y = g.conv(pre, p + ".conv1", mid, 1);
        y = g.act(g.batch_norm(y, p + ".bn2"), p + ".relu2", Activation::ReLU, false);
        y = g.conv(y, p + ".conv2", mid, 3, stride, 1);
        y = g.act(g.batch_norm(y, p + ".bn3"), p + ".relu3", Activation::ReLU, false);
        y = g.conv(y, p + ".conv3", out, 1);
      } else {
        y = g.conv(pre, p + ".conv1", mid, 3, stride, 1);
        y = g.act(g.batch_norm(y, p + ".bn2"), p + ".relu2", Activation::ReLU, false);
        y = g.conv(y, p + ".conv2", mid, 3, 1, 1);
      }
      x = g.add({y, shortcut}, p + ".add");
      in = out;
    }
  }
  x = g.batch_norm(x, "bn");
  x = g.act(x, "relu", Activation::ReLU, false);
  x = g.adaptive_avg_pool(x, "avgpool", 1);
  x = g.flatten(x, "flatten");
  x = g.dense(x, "fc", 10);
  g.loss(x);
  return g;
}

// CosmoFlow (Mathuriya et al., SC'18) as in ParaDL's COSMOFLOW.net: seven 3D convolutions
// (16-32-64-128 filters of 3^3, then 256-256-128 of 2^3), ReLU, 2^3 average pooling, and
// dense 2048-256-4. The first convolution is unpadded as in the 512^3 file (4x512^3 ->
// 16x510^3); the other 3^3 convolutions are padded and the last two convolutions are not
// pooled, so the network also runs at the 128^3 of MLPerf HPC, and a global average pool
// feeds the dense layers with 128 features at any resolution (ParaDL's FC_1 is 128x2048).
Graph cosmoflow() {
  Graph g("cosmoflow", 3);
  int x = g.input();
  const std::int64_t filters[7] = {16, 32, 64, 128, 256, 256, 128};
  for (int i = 0; i < 7; ++i) {
    const std::string p = "conv" + std::to_string(i + 1);
    const std::int64_t k = i < 4 ? 3 : 2;
    const std::int64_t pad = (i > 0 && i < 4) ? 1 : 0;
    x = g.conv(x, p, filters[i], k, 1, pad, true);
    x = g.act(x, p + ".relu");
    if (i < 5) x = g.avg_pool(x, p + ".pool", 2, 2);
  }
  x = g.adaptive_avg_pool(x, "avgpool", 1);
  x = g.flatten(x, "flatten");
  x = g.act(g.dense(x, "fc1", 2048), "fc1.relu");
  x = g.act(g.dense(x, "fc2", 256), "fc2.relu");
  x = g.dense(x, "fc3", 4);
  g.loss(x);
  return g;
}

// MLPerf HPC's CosmoFlow (mlcommons/hpc, cosmoflow/models/cosmoflow.py with
// configs/cosmo.yaml): five 2^3 convolutions with bias and 'same' padding (TensorFlow pads
// the one extra zero after), 32-64-128-256-512 filters, each with LeakyReLU(0.3, Keras's
// default) and 2^3 max pooling; flatten (512x4^3 at 128^3), dense 128 and 64 with LeakyReLU
// and dropout 0.5, dense 4 with tanh (times 1.2: no cost); mean squared error.
Graph mlperf_cosmoflow() {
  Graph g("mlperf_cosmoflow", 3);
  int x = g.input();
  for (int i = 0; i < 5; ++i) {
    const std::string p = "conv" + std::to_string(i + 1);
    Layer conv;
    conv.name = p;
    conv.op = Op::Conv;
    conv.inputs = {x};
    conv.out_channels = std::int64_t{32} << i;
    conv.window = Window::cube(2);
    conv.window.padding_end_extra = {1, 1, 1};
    conv.bias = true;
    x = g.add(conv);
    x = g.act(x, p + ".act", Activation::LeakyReLU, false);
    x = g.max_pool(x, p + ".pool", 2, 2);
  }
  x = g.flatten(x, "flatten");
  x = g.dropout(g.act(g.dense(x, "fc1", 128), "fc1.act", Activation::LeakyReLU, false), "drop1");
  x = g.dropout(g.act(g.dense(x, "fc2", 64), "fc2.act", Activation::LeakyReLU, false), "drop2");
  x = g.act(g.dense(x, "fc3", 4), "tanh", Activation::Tanh, false);
  g.loss(x, "loss", Op::MSELoss);
  return g;
}

// 3D U-Net (Cicek et al., MICCAI 2016): 3 poolings, 3^3 convolutions with batch norm and
// ReLU (32/64, 64/128, 128/256, 256/512 filters), 2^3 up-convolutions with stride 2,
// skip concatenations, and a 1^3 convolution to 3 labels (19,069,955 parameters with
// 3 input channels, as the paper states). Convolutions are padded ("same"), as in
// current implementations, so any input divisible by 8 works.
Graph unet3d() {
  Graph g("unet3d", 3);
  int x = g.input();
  const auto block = [&](int in, const std::string& p, std::int64_t mid, std::int64_t out) {
    int y = g.conv(in, p + ".conv1", mid, 3, 1, 1);
    y = g.act(g.batch_norm(y, p + ".bn1"), p + ".relu1");
    y = g.conv(y, p + ".conv2", out, 3, 1, 1);
    return g.act(g.batch_norm(y, p + ".bn2"), p + ".relu2");
  };
  const int skip1 = block(x, "enc1", 32, 64);
  const int skip2 = block(g.max_pool(skip1, "pool1", 2, 2), "enc2", 64, 128);
  const int skip3 = block(g.max_pool(skip2, "pool2", 2, 2), "enc3", 128, 256);
  x = block(g.max_pool(skip3, "pool3", 2, 2), "bottom", 256, 512);
  x = g.concat({g.conv_transpose(x, "up3", 512, 2, 2), skip3}, "cat3");
  x = block(x, "dec3", 256, 256);
  x = g.concat({g.conv_transpose(x, "up2", 256, 2, 2), skip2}, "cat2");
  x = block(x, "dec2", 128, 128);
  x = g.concat({g.conv_transpose(x, "up1", 128, 2, 2), skip1}, "cat1");
  x = block(x, "dec1", 64, 64);
  x = g.conv(x, "out", 3, 1, 1, 0, true);
  g.loss(x);
  return g;
}

}  // namespace paradise::model::zoo_detail
