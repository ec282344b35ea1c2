#include "paradise/model/zoo.hpp"

#include "paradise/core/error.hpp"
#include "zoo_builders.hpp"

namespace paradise::model {
namespace {

const char* kTorchvision = "torchvision 0.14 models";
const Shape kImageNet = Shape::image(3, 224, 224);
const Shape kCifar = Shape::image(3, 32, 32);

}  // namespace

const std::vector<ZooEntry>& zoo() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> e;
    e.push_back({"alexnet", kImageNet, kTorchvision});
    for (const char* d : {"11", "13", "16", "19"}) {
      e.push_back({std::string("vgg") + d, kImageNet, kTorchvision});
      e.push_back({std::string("vgg") + d + "_bn", kImageNet, kTorchvision});
    }
    for (const char* r :
         {"resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "wide_resnet50_2",
          "resnext50_32x4d", "resnext101_32x8d", "densenet121", "mobilenet_v2"}) {
      e.push_back({r, kImageNet, kTorchvision});
    }
    // not in torchvision; NVIDIA's DeepLearningExamples train it (its throughput tables)
    e.push_back({"resnext101_32x4d", kImageNet,
                 "Xie et al. 2017, torchvision's ResNet with 32 groups of width 4"});
    e.push_back({"resnet110", kCifar, "He et al. 2016, pre-activation (CIFAR)"});
    e.push_back({"resnet1001", kCifar, "He et al. 2016, pre-activation bottleneck (CIFAR)"});
    e.push_back({"cosmoflow", Shape::volume(4, 128, 128, 128),
                 "Mathuriya et al. SC'18 as in ParaDL's COSMOFLOW.net"});
    e.push_back({"unet3d", Shape::volume(3, 128, 128, 128), "Cicek et al. MICCAI 2016"});
    return e;
  }();
  return entries;
}

const ZooEntry& zoo_entry(std::string_view name) {
  for (const auto& e : zoo()) {
    if (e.name == name) return e;
  }
  std::string known;
  for (const auto& e : zoo()) known += (known.empty() ? "" : ", ") + e.name;
  throw InputError("unknown model '" + std::string(name) + "'; built-in models: " + known +
                   " (or give a model file: *.model, or ParaDL *.net)");
}

Graph build_zoo_model(std::string_view name) {
  const std::string n(zoo_entry(name).name);
  if (n == "alexnet") return zoo_detail::alexnet();
  if (n.starts_with("vgg")) return zoo_detail::vgg(std::stoi(n.substr(3, 2)), n.ends_with("_bn"));
  if (n == "densenet121") return zoo_detail::densenet121();
  if (n == "mobilenet_v2") return zoo_detail::mobilenet_v2();
  if (n == "resnet110") return zoo_detail::preact_resnet_cifar(n, 110);
  if (n == "resnet1001") return zoo_detail::preact_resnet_cifar(n, 1001);
  if (n == "cosmoflow") return zoo_detail::cosmoflow();
  if (n == "unet3d") return zoo_detail::unet3d();
  return zoo_detail::resnet(n);
}

}  // namespace paradise::model
