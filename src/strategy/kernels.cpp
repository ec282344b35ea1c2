// Kernel counts of an eager PyTorch training step (docs/gpu-profiles.md §fixed-costs).
#include "paradise/strategy/kernels.hpp"

#include <algorithm>
#include <cmath>

namespace paradise::strategy {
namespace {

// Output positions per sample of a layer with a weight: its output elements per channel.
double positions(const model::LayerStats& l) {
  return l.output.channels > 0
             ? static_cast<double>(l.output_elements) / static_cast<double>(l.output.channels)
             : 0;
}

// A convolution or dense layer has a bias when its parameters exceed its MACs per position
// (weights x positions = MACs; analyze.cpp).
bool has_bias(const model::LayerStats& l) {
  return static_cast<double>(l.params) * positions(l) > static_cast<double>(l.macs) + 0.5;
}

// A weighted layer: one GEMM forward, one for dL/dx (none where no gradient flows to the
// input: the first layer), one for dL/dW, and with a bias its add and its reduction.
int gemm_layer_kernels(const model::LayerStats& l) {
  const int bias = has_bias(l) ? 2 : 0;
  return 1 + (l.backward_data_flops > 0 ? 1 : 0) + (l.params > 0 ? 1 : 0) + bias;
}

bool is_norm(model::Op op) {
  using model::Op;
  return op == Op::BatchNorm || op == Op::GroupNorm || op == Op::InstanceNorm ||
         op == Op::LayerNorm;
}

}  // namespace

int parameter_tensors(const model::LayerStats& l) {
  if (l.params <= 0) return 0;
  if (is_norm(l.op)) return 2;  // scale and shift
  return has_bias(l) ? 2 : 1;
}

int layer_kernels(const model::LayerStats& l, Precision p) {
  using model::Op;
  // autocast casts each weight to half precision in every forward pass (torch.amp); the
  // normalisations run in fp32 with their own weights
  const int cast = p == Precision::Mixed && l.params > 0 && !is_norm(l.op) ? 1 : 0;
  switch (l.op) {
    case Op::Input:
    case Op::Flatten:  // a view
      return 0;
    case Op::Conv:
    case Op::ConvTranspose:
    case Op::Dense:
      return gemm_layer_kernels(l) + cast;
    case Op::BatchNorm:  // cudnnBatchNormalizationForwardTraining / BackwardEx: one call each
    case Op::Activation:
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::AdaptiveAvgPool:
    case Op::Dropout:
    case Op::Upsample:
    case Op::Add:  // the sum, and autograd's accumulation of the two gradients at the fork
      return 2;
    case Op::GroupNorm:  // ATen's native kernels: the moments and the affine map, each way
    case Op::InstanceNorm:
    case Op::LayerNorm:
      return 4;
    case Op::ChannelScale:  // x * s; backward: dL/dx = g * s, dL/ds = sum(g * x)
      return 3;
    case Op::MSELoss:  // one fused loss kernel each way
    case Op::L1Loss:
      return 2;
    case Op::DiceLoss:  // composed: softmax, products, three sums and the ratio, each way
      return 12;
    case Op::Concat:  // the copy; its backward hands out views of dL/dy
      return 1;
    case Op::SoftmaxCrossEntropy:  // log_softmax and nll_loss, each with its backward
      return 4;
  }
  return 0;
}

int optimizer_kernels(double tensors, double elements, Optimizer o, Precision p) {
  if (tensors == 0) return 0;
  // multi_tensor_apply (ATen MultiTensorApply.cuh): at most 48 tensors (three lists) and
  // 320 blocks of 65,536 elements per launch
  const double launches = std::max(std::ceil(tensors / 48), std::ceil(elements / (65536.0 * 320)));
  // foreach ops per step (torch/optim/sgd.py, adam.py): sgd p -= lr g; momentum buf = m buf + g,
  // p -= lr buf; adam: two moment updates, bias-corrected sqrt, division and the update
  const double ops = o == Optimizer::Sgd ? 1 : o == Optimizer::Momentum ? 3 : 7;
  // GradScaler: the fused unscale-and-check over the gradients, and the scale's update
  const double scaler = p == Precision::Mixed ? launches + 1 : 0;
  return static_cast<int>(ops * launches + scaler);
}

}  // namespace paradise::strategy
