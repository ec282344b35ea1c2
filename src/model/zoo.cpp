#include "paradise/model/zoo.hpp"

#include "paradise/core/error.hpp"
#include "zoo_builders.hpp"

namespace paradise::model {
namespace {

const char* kTorchvision = "torchvision 0.14 models";
const Shape kImageNet = Shape::image(3, 224, 224);
const Shape kCifar = Shape::image(3, 32, 32);
// EfficientNet-B0 ... B4: name, input side, width and depth multipliers (torchvision's
// efficientnet.py; resolutions of Tan & Le 2019)
struct EfficientNetSpec {
  const char* name;
  std::int64_t side;
  double width, depth;
};
constexpr EfficientNetSpec kEfficientNets[5] = {{"efficientnet_b0", 224, 1.0, 1.0},
                                                {"efficientnet_b1", 240, 1.0, 1.1},
                                                {"efficientnet_b2", 260, 1.1, 1.2},
                                                {"efficientnet_b3", 300, 1.2, 1.4},
                                                {"efficientnet_b4", 380, 1.4, 1.8}};

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
    e.push_back({"se_resnext101_32x4d", kImageNet,
                 "Hu et al. 2018 as NVIDIA DeepLearningExamples build it (SE to 16 channels)"});
    // torchvision 0.14's EfficientNets at the paper's resolutions (Tan & Le 2019, Table 7)
    for (const auto& spec : kEfficientNets)
      e.push_back({spec.name, Shape::image(3, spec.side, spec.side), kTorchvision});
    e.push_back({"unet2d", Shape::image(1, 572, 572), "Ronneberger et al. MICCAI 2015"});
    e.push_back({"unet2d_medical", Shape::image(1, 572, 572),
                 "U-Net as NVIDIA DeepLearningExamples' UNet_Medical builds it"});
    e.push_back({"mlperf_cosmoflow", Shape::volume(4, 128, 128, 128),
                 "MLPerf HPC CosmoFlow reference (mlcommons/hpc)"});
    e.push_back({"mlperf_unet3d", Shape::volume(1, 128, 128, 128),
                 "MLPerf Training 3D U-Net, KiTS19 (mlcommons/training)"});
    // NVIDIA DeepLearningExamples' nnU-Net on BraTS (MSD Task01): its patches
    e.push_back({"nnunet2d", Shape::image(4, 192, 160),
                 "Isensee et al. 2021 as NVIDIA DeepLearningExamples configure it (BraTS)"});
    e.push_back({"nnunet3d", Shape::volume(4, 128, 128, 128),
                 "Isensee et al. 2021 as NVIDIA DeepLearningExamples configure it (BraTS)"});
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
  if (n == "mlperf_cosmoflow") return zoo_detail::mlperf_cosmoflow();
  if (n == "unet2d") return zoo_detail::unet2d();
  if (n == "unet2d_medical") return zoo_detail::unet2d_medical();
  if (n == "mlperf_unet3d") return zoo_detail::mlperf_unet3d();
  if (n == "nnunet2d") return zoo_detail::nnunet(n, 2);
  if (n == "nnunet3d") return zoo_detail::nnunet(n, 3);
  for (const auto& e : kEfficientNets)
    if (n == e.name) return zoo_detail::efficientnet(n, e.width, e.depth);
  return zoo_detail::resnet(n);
}

}  // namespace paradise::model
