// The zoo against PyTorch's own counts (tests/data/torch_reference.json, produced by
// analysis/reference/torch_counts.py with Debian's python3-torch/-torchvision).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "paradise/model/model_source.hpp"
#include "paradise/model/zoo.hpp"

namespace paradise::model {
namespace {

const nlohmann::json& reference() {
  static const nlohmann::json ref = [] {
    std::ifstream in(PARADISE_TEST_DATA "/torch_reference.json");
    return nlohmann::json::parse(in);
  }();
  return ref;
}

ModelStats stats_at_reference_input(const std::string& name, const nlohmann::json& entry) {
  const Shape input = Shape::parse(entry.at("input").get<std::string>(), {}, "input");
  return ModelSource::load(name).stats(input);
}

TEST(TorchReference, CoversEveryZooModel) {
  for (const auto& e : zoo()) EXPECT_TRUE(reference().at("models").contains(e.name)) << e.name;
}

TEST(TorchReference, ParameterCountsEqualPytorchExactly) {
  for (const auto& [name, entry] : reference().at("models").items()) {
    const auto m = stats_at_reference_input(name, entry);
    EXPECT_EQ(m.params(), entry.at("params").get<std::int64_t>()) << name;
  }
}

TEST(TorchReference, MacsEqualPytorchHookCountsExactly) {
  // macs_hooks: conv/conv-transpose/linear multiply-accumulates counted by forward hooks
  for (const auto& [name, entry] : reference().at("models").items()) {
    const auto m = stats_at_reference_input(name, entry);
    EXPECT_EQ(m.macs(), entry.at("macs_hooks").get<std::int64_t>()) << name;
  }
}

TEST(TorchReference, MacsWithinOnePercentOfTorchvisionPublishedFigures) {
  // published_gflops: torchvision's "GFLOPS" (= GMACs), the weights' "_ops" metadata of
  // torchvision >= 0.15, transcribed in analysis/reference/torch_counts.py because Debian's
  // 0.14 lacks the field. Every torchvision model of the zoo must have one: no silent skip.
  int checked = 0;
  for (const auto& [name, entry] : reference().at("models").items()) {
    if (entry.at("published_gflops").is_null()) continue;  // zoo models torchvision lacks
    const auto m = stats_at_reference_input(name, entry);
    const double published = entry.at("published_gflops").get<double>() * 1e9;
    EXPECT_NEAR(static_cast<double>(m.macs()) / published, 1.0, 0.01) << name;
    ++checked;
  }
  // alexnet, 8 VGGs, 5 ResNets, wide, 2 resnext, densenet121, mobilenet_v2, 5 EfficientNets
  EXPECT_EQ(checked, 24);
}

TEST(TorchReference, SavedForBackwardWithinTenPercentOfAutograd) {
  int checked = 0;
  for (const auto& [name, entry] : reference().at("models").items()) {
    if (!entry.contains("saved_bytes_per_sample")) continue;
    const auto m = stats_at_reference_input(name, entry);
    const double measured = entry.at("saved_bytes_per_sample").get<double>();
    // the issue asks for 10%; every model is within 1.1% today, so 2% guards the rule
    EXPECT_NEAR(static_cast<double>(m.saved_bytes_per_sample(4)) / measured, 1.0, 0.02) << name;
    ++checked;
  }
  EXPECT_GE(checked, 4);  // at least alexnet, vgg16, resnet50 and one 3D network
}

}  // namespace
}  // namespace paradise::model
