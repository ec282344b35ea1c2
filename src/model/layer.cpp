#include "paradise/model/layer.hpp"

#include <array>
#include <utility>

namespace paradise::model {

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Input:
      return "input";
    case Op::Conv:
      return "conv";
    case Op::ConvTranspose:
      return "conv_transpose";
    case Op::MaxPool:
      return "maxpool";
    case Op::AvgPool:
      return "avgpool";
    case Op::AdaptiveAvgPool:
      return "adaptive_avgpool";
    case Op::Dense:
      return "dense";
    case Op::BatchNorm:
      return "batchnorm";
    case Op::Activation:
      return "activation";
    case Op::Add:
      return "add";
    case Op::Concat:
      return "concat";
    case Op::Flatten:
      return "flatten";
    case Op::Dropout:
      return "dropout";
    case Op::SoftmaxCrossEntropy:
      return "softmax_ce";
    case Op::Upsample:
      return "upsample";
    case Op::GroupNorm:
      return "groupnorm";
    case Op::InstanceNorm:
      return "instancenorm";
    case Op::LayerNorm:
      return "layernorm";
    case Op::ChannelScale:
      return "channel_scale";
    case Op::MSELoss:
      return "mse_loss";
    case Op::L1Loss:
      return "l1_loss";
    case Op::DiceLoss:
      return "dice_loss";
  }
  return "?";
}

namespace {
constexpr std::array<std::pair<Activation, std::string_view>, 8> kActivations{{
    {Activation::ReLU, "relu"},
    {Activation::ReLU6, "relu6"},
    {Activation::LeakyReLU, "leaky_relu"},
    {Activation::Sigmoid, "sigmoid"},
    {Activation::Tanh, "tanh"},
    {Activation::GELU, "gelu"},
    {Activation::SiLU, "silu"},
    {Activation::HardSwish, "hardswish"},
}};
}  // namespace

std::string_view activation_name(Activation a) {
  for (const auto& [act, name] : kActivations) {
    if (act == a) return name;
  }
  return "?";
}

std::optional<Activation> activation_from_name(std::string_view name) {
  for (const auto& [act, n] : kActivations) {
    if (n == name) return act;
  }
  return std::nullopt;
}

}  // namespace paradise::model
