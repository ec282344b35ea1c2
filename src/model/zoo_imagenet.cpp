// ImageNet classifiers, layer for layer as torchvision 0.14 builds them
// (torchvision/models/{alexnet,vgg,resnet,densenet,mobilenetv2}.py), with the
// softmax cross-entropy loss appended. Layer names follow torchvision's modules.
#include <string>

#include "zoo_builders.hpp"

namespace paradise::model::zoo_detail {

// torchvision alexnet.py (the "one weird trick" variant: 64-192-384-256-256).
Graph alexnet() {
  Graph g("alexnet", 2);
  int x = g.input();
  x = g.conv(x, "features.0", 64, 11, 4, 2, true);
  x = g.act(x, "features.1");
  x = g.max_pool(x, "features.2", 3, 2);
  x = g.conv(x, "features.3", 192, 5, 1, 2, true);
  x = g.act(x, "features.4");
  x = g.max_pool(x, "features.5", 3, 2);
  x = g.conv(x, "features.6", 384, 3, 1, 1, true);
  x = g.act(x, "features.7");
  x = g.conv(x, "features.8", 256, 3, 1, 1, true);
  x = g.act(x, "features.9");
  x = g.conv(x, "features.10", 256, 3, 1, 1, true);
  x = g.act(x, "features.11");
  x = g.max_pool(x, "features.12", 3, 2);
  x = g.adaptive_avg_pool(x, "avgpool", 6);
  x = g.flatten(x, "flatten");
  x = g.dropout(x, "classifier.0");
  x = g.dense(x, "classifier.1", 4096);
  x = g.act(x, "classifier.2");
  x = g.dropout(x, "classifier.3");
  x = g.dense(x, "classifier.4", 4096);
  x = g.act(x, "classifier.5");
  x = g.dense(x, "classifier.6", 1000);
  g.loss(x);
  return g;
}

// torchvision vgg.py, configurations A (11), B (13), D (16), E (19) of Simonyan & Zisserman.
Graph vgg(int depth, bool batch_norm) {
  const int convs_per_stage[4][5] = {
      {1, 1, 2, 2, 2}, {2, 2, 2, 2, 2}, {2, 2, 3, 3, 3}, {2, 2, 4, 4, 4}};
  const int row = depth == 11 ? 0 : depth == 13 ? 1 : depth == 16 ? 2 : 3;
  const std::int64_t widths[5] = {64, 128, 256, 512, 512};
  Graph g("vgg" + std::to_string(depth) + (batch_norm ? "_bn" : ""), 2);
  int x = g.input();
  int index = 0;
  const auto name = [&] { return "features." + std::to_string(index++); };
  for (int stage = 0; stage < 5; ++stage) {
    for (int c = 0; c < convs_per_stage[row][stage]; ++c) {
      x = g.conv(x, name(), widths[stage], 3, 1, 1, true);
      if (batch_norm) x = g.batch_norm(x, name());
      x = g.act(x, name());
    }
    x = g.max_pool(x, name(), 2, 2);
  }
  x = g.adaptive_avg_pool(x, "avgpool", 7);
  x = g.flatten(x, "flatten");
  x = g.dense(x, "classifier.0", 4096);
  x = g.act(x, "classifier.1");
  x = g.dropout(x, "classifier.2");
  x = g.dense(x, "classifier.3", 4096);
  x = g.act(x, "classifier.4");
  x = g.dropout(x, "classifier.5");
  x = g.dense(x, "classifier.6", 1000);
  g.loss(x);
  return g;
}

namespace {

struct ResNetSpec {
  bool bottleneck;
  int blocks[4];
  std::int64_t groups;
  std::int64_t width_per_group;
  std::int64_t se_channels = 0;  ///< squeeze-and-excitation to this many channels; 0: none
};

// NVIDIA DeepLearningExamples' SqueezeAndExcitation (PyTorch/Classification/ConvNets,
// models/common.py): global average pool, 1x1 convolutions with bias to `squeeze` channels
// and back, ReLU, sigmoid; the block's output times it (Hu et al. 2018).
int squeeze_excitation(Graph& g, int x, const std::string& p, std::int64_t channels,
                       std::int64_t squeeze) {
  int s = g.adaptive_avg_pool(x, p + ".squeeze.pooling", 1);
  s = g.conv(s, p + ".squeeze.squeeze", squeeze, 1, 1, 0, true);
  s = g.act(s, p + ".squeeze.activation");
  s = g.conv(s, p + ".squeeze.expand", channels, 1, 1, 0, true);
  s = g.act(s, p + ".squeeze.sigmoid", Activation::Sigmoid, false);
  return g.channel_scale(x, s, p + ".mul");
}

// One BasicBlock or Bottleneck of torchvision resnet.py (stride on the 3x3 conv, v1.5).
int resnet_block(Graph& g, int x, const std::string& p, std::int64_t& inplanes, std::int64_t planes,
                 std::int64_t stride, const ResNetSpec& spec) {
  const std::int64_t expansion = spec.bottleneck ? 4 : 1;
  const std::int64_t out_planes = planes * expansion;
  int y = x;
  if (spec.bottleneck) {
    const std::int64_t width = planes * spec.width_per_group / 64 * spec.groups;
    y = g.conv(y, p + ".conv1", width, 1);
    y = g.batch_norm(y, p + ".bn1");
    y = g.act(y, p + ".relu1");
    y = g.conv(y, p + ".conv2", width, 3, stride, 1, false, spec.groups);
    y = g.batch_norm(y, p + ".bn2");
    y = g.act(y, p + ".relu2");
    y = g.conv(y, p + ".conv3", out_planes, 1);
    y = g.batch_norm(y, p + ".bn3");
  } else {
    y = g.conv(y, p + ".conv1", planes, 3, stride, 1);
    y = g.batch_norm(y, p + ".bn1");
    y = g.act(y, p + ".relu1");
    y = g.conv(y, p + ".conv2", planes, 3, 1, 1);
    y = g.batch_norm(y, p + ".bn2");
  }
  int shortcut = x;
  if (stride != 1 || inplanes != out_planes) {
    shortcut = g.conv(x, p + ".downsample.0", out_planes, 1, stride);
    shortcut = g.batch_norm(shortcut, p + ".downsample.1");
  }
  inplanes = out_planes;
  // NVIDIA's fused torch.addcmul(residual, out, se): the same saved tensors as mul and add
  if (spec.se_channels > 0) y = squeeze_excitation(g, y, p, out_planes, spec.se_channels);
  y = g.add({y, shortcut}, p + ".add");
  return g.act(y, p + ".relu");
}

}  // namespace

Graph resnet(const std::string& name) {
  ResNetSpec spec{false, {2, 2, 2, 2}, 1, 64};
  if (name == "resnet34") spec = {false, {3, 4, 6, 3}, 1, 64};
  if (name == "resnet50") spec = {true, {3, 4, 6, 3}, 1, 64};
  if (name == "resnet101") spec = {true, {3, 4, 23, 3}, 1, 64};
  if (name == "resnet152") spec = {true, {3, 8, 36, 3}, 1, 64};
  if (name == "wide_resnet50_2") spec = {true, {3, 4, 6, 3}, 1, 128};
  if (name == "resnext50_32x4d") spec = {true, {3, 4, 6, 3}, 32, 4};
  // Xie et al. 2017: 101 layers of grouped bottlenecks, 32 groups of 4 or 8 channels
  if (name == "resnext101_32x4d") spec = {true, {3, 4, 23, 3}, 32, 4};
  if (name == "resnext101_32x8d") spec = {true, {3, 4, 23, 3}, 32, 8};
  // NVIDIA DeepLearningExamples' se-resnext101-32x4d (models/resnet.py): SEBottleneck with
  // se_squeeze = 16 channels
  if (name == "se_resnext101_32x4d") spec = {true, {3, 4, 23, 3}, 32, 4, 16};
  Graph g(name, 2);
  int x = g.input();
  x = g.conv(x, "conv1", 64, 7, 2, 3);
  x = g.batch_norm(x, "bn1");
  x = g.act(x, "relu");
  x = g.max_pool(x, "maxpool", 3, 2, 1);
  std::int64_t inplanes = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t planes = std::int64_t{64} << stage;
    for (int b = 0; b < spec.blocks[stage]; ++b) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(b);
      x = resnet_block(g, x, p, inplanes, planes, (stage > 0 && b == 0) ? 2 : 1, spec);
    }
  }
  x = g.adaptive_avg_pool(x, "avgpool", 1);
  x = g.flatten(x, "flatten");
  x = g.dense(x, "fc", 1000);
  g.loss(x);
  return g;
}

// torchvision densenet.py: DenseNet-121 (growth 32, bn_size 4, blocks 6-12-24-16).
Graph densenet121() {
  Graph g("densenet121", 2);
  int x = g.input();
  x = g.conv(x, "features.conv0", 64, 7, 2, 3);
  x = g.batch_norm(x, "features.norm0");
  x = g.act(x, "features.relu0");
  x = g.max_pool(x, "features.pool0", 3, 2, 1);
  std::int64_t channels = 64;
  const int block_layers[4] = {6, 12, 24, 16};
  for (int b = 0; b < 4; ++b) {
    const std::string bp = "features.denseblock" + std::to_string(b + 1);
    std::vector<int> features{x};
    for (int i = 0; i < block_layers[b]; ++i) {
      const std::string p = bp + ".denselayer" + std::to_string(i + 1);
      int y = g.concat(features, p + ".cat");
      y = g.batch_norm(y, p + ".norm1");
      y = g.act(y, p + ".relu1");
      y = g.conv(y, p + ".conv1", std::int64_t{4} * 32, 1);
      y = g.batch_norm(y, p + ".norm2");
      y = g.act(y, p + ".relu2");
      y = g.conv(y, p + ".conv2", 32, 3, 1, 1);
      features.push_back(y);
    }
    x = g.concat(features, bp + ".cat");
    channels += std::int64_t{32} * block_layers[b];
    if (b < 3) {
      const std::string tp = "features.transition" + std::to_string(b + 1);
      x = g.batch_norm(x, tp + ".norm");
      x = g.act(x, tp + ".relu");
      channels /= 2;
      x = g.conv(x, tp + ".conv", channels, 1);
      x = g.avg_pool(x, tp + ".pool", 2, 2);
    }
  }
  x = g.batch_norm(x, "features.norm5");
  x = g.act(x, "relu");
  x = g.adaptive_avg_pool(x, "avgpool", 1);
  x = g.flatten(x, "flatten");
  x = g.dense(x, "classifier", 1000);
  g.loss(x);
  return g;
}

// torchvision mobilenetv2.py, width 1.0: inverted residual blocks with ReLU6.
Graph mobilenet_v2() {
  Graph g("mobilenet_v2", 2);
  int x = g.input();
  int index = 0;
  const auto conv_bn_act = [&](int in, const std::string& p, std::int64_t out, std::int64_t k,
                               std::int64_t s, std::int64_t groups, bool activation) {
    int y = g.conv(in, p + ".0", out, k, s, (k - 1) / 2, false, groups);
    y = g.batch_norm(y, p + ".1");
    return activation ? g.act(y, p + ".2", Activation::ReLU6) : y;
  };
  x = conv_bn_act(x, "features.0", 32, 3, 2, 1, true);
  std::int64_t in = 32;
  const std::int64_t settings[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                       {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  index = 1;
  for (const auto& st : settings) {
    for (std::int64_t i = 0; i < st[2]; ++i) {
      const std::string p = "features." + std::to_string(index++);
      const std::int64_t stride = i == 0 ? st[3] : 1;
      const std::int64_t hidden = in * st[0];
      int y = x;
      int part = 0;
      const auto sub = [&] { return p + ".conv." + std::to_string(part++); };
      if (st[0] != 1) y = conv_bn_act(y, sub(), hidden, 1, 1, 1, true);
      y = conv_bn_act(y, sub(), hidden, 3, stride, hidden, true);
      y = g.conv(y, sub(), st[1], 1);
      y = g.batch_norm(y, sub());
      x = (stride == 1 && in == st[1]) ? g.add({x, y}, p + ".add") : y;
      in = st[1];
    }
  }
  dropout_classifier(g, conv_bn_act(x, "features.18", 1280, 1, 1, 1, true));
  return g;
}

}  // namespace paradise::model::zoo_detail
