// Private: the builders behind the zoo (one function per architecture family).
#pragma once

#include <string>

#include "paradise/model/graph.hpp"

namespace paradise::model::zoo_detail {

Graph alexnet();
Graph vgg(int depth, bool batch_norm);
Graph resnet(const std::string& name);
Graph densenet121();
Graph mobilenet_v2();
Graph preact_resnet_cifar(const std::string& name, int depth);
Graph cosmoflow();
Graph unet3d();
Graph mlperf_cosmoflow();
Graph efficientnet(const std::string& name, double width, double depth);
Graph unet2d();
Graph unet2d_medical();
Graph mlperf_unet3d();
Graph nnunet(const std::string& name, int rank);

/// torchvision's classifier of MobileNet and EfficientNet: global average pool, flatten,
/// dropout ("classifier.0"), a dense layer to 1,000 classes ("classifier.1"), the loss.
inline void dropout_classifier(Graph& g, int x) {
  x = g.adaptive_avg_pool(x, "avgpool", 1);
  x = g.flatten(x, "flatten");
  x = g.dropout(x, "classifier.0");
  x = g.dense(x, "classifier.1", 1000);
  g.loss(x);
}

}  // namespace paradise::model::zoo_detail
