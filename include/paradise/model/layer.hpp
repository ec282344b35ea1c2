// The layer vocabulary of a CNN layer graph.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise::model {

enum class Op : std::uint8_t {
  Input,
  Conv,           ///< N-d convolution: kernel, stride, padding, dilation, groups
  ConvTranspose,  ///< transposed convolution (up-convolution of 3D U-Net)
  MaxPool,
  AvgPool,
  AdaptiveAvgPool,  ///< to a fixed output size; global average pooling when 1
  Dense,            ///< fully connected on a flat input
  BatchNorm,
  Activation,
  Add,      ///< element-wise sum of inputs of equal shape (residual)
  Concat,   ///< along channels
  Flatten,  ///< a view: no copy, no cost
  Dropout,
  SoftmaxCrossEntropy,  ///< loss over channels at every spatial position
  Upsample,             ///< by an integer factor: nearest, or (bi/tri)linear
  GroupNorm,            ///< over groups of channels and the spatial extent (Wu & He 2018)
  InstanceNorm,         ///< over the spatial extent of every channel (Ulyanov et al. 2016)
  LayerNorm,            ///< over the channels at every position (ConvNeXt's LayerNorm2d)
  ChannelScale,         ///< x [C, spatial] times s [C, 1..]: the squeeze-and-excitation multiply
  MSELoss,              ///< mean squared error against a target of the input's shape
  L1Loss,               ///< mean absolute error against a target of the input's shape
  DiceLoss,             ///< soft Dice over softmax probabilities and a one-hot target
};

enum class Activation : std::uint8_t {
  ReLU,
  ReLU6,
  LeakyReLU,
  Sigmoid,
  Tanh,
  GELU,
  SiLU,
  HardSwish
};

/// Upsample's interpolation: nearest-neighbour, or linear along every spatial dimension
/// (bilinear in 2-D, trilinear in 3-D).
enum class UpsampleMode : std::uint8_t { Nearest, Linear };

std::string_view op_name(Op op);
std::string_view activation_name(Activation a);
std::optional<Activation> activation_from_name(std::string_view name);

/// Kernel geometry per spatial dimension (only the first `rank` entries are used).
struct Window {
  std::array<std::int64_t, 3> kernel{1, 1, 1};
  std::array<std::int64_t, 3> stride{1, 1, 1};
  std::array<std::int64_t, 3> padding{0, 0, 0};
  std::array<std::int64_t, 3> dilation{1, 1, 1};
  std::array<std::int64_t, 3> output_padding{0, 0, 0};  ///< transposed convolution only
  /// Convolution only: zeros padded after the end beyond `padding` (TensorFlow's 'same'
  /// for an even kernel pads one more after than before: CosmoFlow's 2^3 convolutions).
  std::array<std::int64_t, 3> padding_end_extra{0, 0, 0};

  static Window cube(std::int64_t k, std::int64_t s = 1, std::int64_t p = 0, std::int64_t d = 1) {
    return Window{{k, k, k}, {s, s, s}, {p, p, p}, {d, d, d}, {0, 0, 0}};
  }
};

/// One node of the graph. Fields that an op does not use keep their defaults.
struct Layer {
  std::string name;
  Op op = Op::Input;
  std::vector<int> inputs;        ///< indices of earlier layers
  std::int64_t out_channels = 0;  ///< Conv, ConvTranspose, Dense
  Window window;                  ///< Conv, ConvTranspose, MaxPool, AvgPool
  std::int64_t groups = 1;        ///< Conv, ConvTranspose (depthwise: groups = channels), GroupNorm
  bool bias = false;              ///< Conv, ConvTranspose, Dense
  bool affine = true;             ///< GroupNorm, InstanceNorm, LayerNorm: a scale and a shift
  bool per_sample = false;        ///< Dropout: one draw per sample (stochastic depth), not element
  bool crop = false;              ///< Concat: larger inputs centre-cropped to the smallest (U-Net)
  bool ceil_mode = false;         ///< pools
  Activation activation = Activation::ReLU;
  bool inplace = false;                              ///< Activation: overwrites its input
  std::array<std::int64_t, 3> output_size{1, 1, 1};  ///< AdaptiveAvgPool
  std::int64_t scale = 2;                            ///< Upsample
  UpsampleMode upsample_mode = UpsampleMode::Nearest;
  Origin defined_at;  ///< the model-file line that defines it (no file: built in code)
};

}  // namespace paradise::model
