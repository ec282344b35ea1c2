// Shape inference and per-layer cost statistics of a layer graph.
//
// FLOP rules (per sample, n = output elements unless said otherwise):
//   conv/dense      fwd 2*MACs (+n for bias); grad-input 2*MACs; grad-weight 2*MACs (+n bias)
//   batchnorm       fwd 4n (ParaDL's estimate_layer_flop, docs/cost-model.md §paradl-compute);
//   grad-input 4n;
//                   grad-weight 2n (sums of dy and dy*xhat)
//   group/instance/layer norm: as batchnorm (the same mean, variance, normalise and affine
//                   steps over other axes); grad-weight 0 without an affine
//   relu/relu6/leaky fwd n, grad n;   sigmoid/tanh/gelu/silu/hardswish fwd 4n, grad 2n
//   max/avg pool    fwd n*prod(kernel); grad n*prod(kernel)
//   adaptive avg    fwd and grad: input elements
//   add             fwd (k-1)n for k inputs; grad 0 (gradient passes through)
//   channel scale   fwd n; grad 3n (dx = dy*s: n; ds = sum of dy*x: 2n)
//   dropout         fwd n, grad n;  softmax-CE fwd 3n, grad n;  upsample grad n; others 0
//   linear upsample fwd and grad 2*2^rank*n (a multiply and an add per corner)
//   mse/l1 loss     fwd 3n (difference, square or absolute value, sum), grad 2n
//   dice loss       fwd 6n (softmax 3n, product with the one-hot n, two sums 2n), grad 4n
// Saved-for-backward rule (PyTorch autograd in training mode, derivatives.yaml of torch
// 1.13; checked against saved_tensors_hooks in tests/unit/model_reference_test.cpp):
//   conv, conv_transpose, dense, batchnorm, avgpool, adaptive_avgpool: the input
//   groupnorm: the input + float mean and rstd per group (8 B per group);  instancenorm
//   (batch norm of a [1, N*C, ...] view): the input + mean and invstd per channel (8 B per
//   channel) + the affine weight repeated per sample (4 B per channel);  layernorm: the
//   input + mean and rstd per position (8 B per position)
//   channel scale (mul): both inputs
//   maxpool: the input + int64 indices of the output size
//   relu, sigmoid, tanh: the output;  relu6, leaky_relu, gelu, silu, hardswish: the input
//   (in-place relu and leaky_relu: the output, which is the input's buffer; in-place
//   relu6/silu/hardswish: a copy of the input, since autograd must keep the original)
//   dropout: a 1-byte mask per element (CUDA's fused kernel), per sample (stochastic
//   depth's mul by a [N,1,..] noise): 4 B;  softmax-CE: its output (log-probabilities) and
//   the int64 target per position;  mse: the input and the float target (4 B an element);
//   l1 (torch 1.13: (x - t).abs()): the difference, its output;  dice: its softmax
//   probabilities (its output) and the float one-hot target (4 B an element);  add,
//   concat, flatten, upsample: nothing.
// Each distinct buffer counts once; in-place activations and flatten alias their input.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "autograd_liveness.hpp"
#include "paradise/core/error.hpp"
#include "paradise/model/graph.hpp"
#include "paradise/model/stats.hpp"

namespace paradise::model {
namespace {

std::string extents(const std::array<std::int64_t, 3>& v, int rank) {
  std::string s;
  for (int i = 0; i < rank; ++i) {
    if (i > 0) s += "x";
    s += std::to_string(v[static_cast<std::size_t>(i)]);
  }
  return s;
}

constexpr const char* kTooLarge = "is too large (at most 2^31 - 1 per dimension and 2^48 elements)";

std::string layer_message(const Graph& g, const Layer& l, const std::string& what) {
  const Origin& at = l.defined_at;
  const std::string where = at.file.empty() ? "" : at.file + ":" + std::to_string(at.line) + ": ";
  return where + "model '" + g.name() + "': layer '" + l.name + "' (" + std::string(op_name(l.op)) +
         "): " + what;
}
[[noreturn]] void fail_layer(const Graph& g, const Layer& l, const std::string& what) {
  throw InputError(layer_message(g, l, what));
}
[[noreturn]] void fail_layer_too_large(const Graph& g, const Layer& l, const Shape& out) {
  throw SizeLimitError(layer_message(g, l, "output " + out.str() + " " + kTooLarge));
}

std::int64_t kernel_volume(const Window& w, int rank) {
  std::int64_t v = 1;
  for (int i = 0; i < rank; ++i) v *= w.kernel[static_cast<std::size_t>(i)];
  return v;
}

// Output extent of a convolution or pooling window along one dimension (PyTorch's formula).
std::int64_t window_extent(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p,
                           std::int64_t d, bool ceil_mode) {
  const std::int64_t span = in + 2 * p - d * (k - 1) - 1;
  if (span < 0) return 0;
  std::int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;  // last window must start inside the input
  return out;
}

Shape windowed(const Graph& g, const Layer& l, const Shape& in, std::int64_t out_channels) {
  Shape out = in;
  out.channels = out_channels;
  const Window& w = l.window;
  for (int i = 0; i < in.rank; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (w.kernel[u] < 1 || w.stride[u] < 1 || w.dilation[u] < 1 || w.padding[u] < 0) {
      fail_layer(g, l, "kernel, stride and dilation must be >= 1 and padding >= 0");
    }
    if (l.op == Op::ConvTranspose) {
      out.size[u] = (in.size[u] - 1) * w.stride[u] - 2 * w.padding[u] +
                    w.dilation[u] * (w.kernel[u] - 1) + w.output_padding[u] + 1;
    } else {
      if ((l.op == Op::MaxPool || l.op == Op::AvgPool) && 2 * w.padding[u] > w.kernel[u]) {
        fail_layer(g, l, "padding must be at most half the kernel");
      }
      out.size[u] = window_extent(in.size[u] + w.padding_end_extra[u], w.kernel[u], w.stride[u],
                                  w.padding[u], w.dilation[u], l.ceil_mode);
    }
    if (out.size[u] < 1) {
      fail_layer(
          g, l,
          "input " + in.str() + " is too small for kernel " + extents(w.kernel, in.rank) +
              (w.dilation[u] > 1 ? " dilated " + std::to_string(w.dilation[u]) + "x (it spans " +
                                       std::to_string(w.dilation[u] * (w.kernel[u] - 1) + 1) + ")"
                                 : "") +
              " (output extent " + std::to_string(out.size[u]) +
              "); use a larger input resolution");
    }
  }
  if (!out.within_limits()) fail_layer_too_large(g, l, out);
  return out;
}

// A parameter or MAC count summed in long double first, so that a model file's extreme
// sizes fail by name instead of overflowing.
std::int64_t counted(const Graph& g, const Layer& l, long double n, const char* what) {
  if (n > static_cast<long double>(std::int64_t{1} << 62))
    fail_layer(g, l, std::string(what) + ": more than 2^62 (sizes too large)");
  return static_cast<std::int64_t>(n);
}

struct Inferred {
  Shape out;
  std::int64_t params = 0;
  std::int64_t macs = 0;
};

Inferred infer(const Graph& g, const Layer& l, const std::vector<Shape>& in) {
  const Shape& x = in.front();
  Inferred r{x};
  switch (l.op) {
    case Op::Input:
      break;
    case Op::Conv:
    case Op::ConvTranspose: {
      if (x.rank == 0) fail_layer(g, l, "needs a spatial input, got flat " + x.str());
      if (l.out_channels < 1 || l.groups < 1 || x.channels % l.groups != 0 ||
          l.out_channels % l.groups != 0) {
        fail_layer(g, l,
                   "groups (" + std::to_string(l.groups) + ") must divide input channels (" +
                       std::to_string(x.channels) + ") and output channels (" +
                       std::to_string(l.out_channels) + ")");
      }
      r.out = windowed(g, l, x, l.out_channels);
      const std::int64_t k = kernel_volume(l.window, x.rank);
      const std::int64_t w_in = l.op == Op::Conv ? x.channels / l.groups : x.channels;
      const std::int64_t w_out = l.op == Op::Conv ? l.out_channels : l.out_channels / l.groups;
      using LD = long double;
      r.params = counted(g, l, LD(w_in) * LD(w_out) * LD(k) + LD(l.bias ? l.out_channels : 0),
                         "parameters");
      // Every output element of a conv sums (C_in/g)*K products; every input element of a
      // transposed conv scatters to (C_out/g)*K outputs.
      // NOLINTBEGIN(bugprone-integer-division): groups divide both channel counts (checked)
      r.macs =
          l.op == Op::Conv
              ? counted(g, l, LD(r.out.elements()) * LD(x.channels / l.groups) * LD(k), "MACs")
              : counted(g, l, LD(x.elements()) * LD(l.out_channels / l.groups) * LD(k), "MACs");
      // NOLINTEND(bugprone-integer-division)
      break;
    }
    case Op::MaxPool:
    case Op::AvgPool:
      if (x.rank == 0) fail_layer(g, l, "needs a spatial input, got flat " + x.str());
      r.out = windowed(g, l, x, x.channels);
      break;
    case Op::AdaptiveAvgPool:
      if (x.rank == 0) fail_layer(g, l, "needs a spatial input, got flat " + x.str());
      for (int i = 0; i < x.rank; ++i)
        r.out.size[static_cast<std::size_t>(i)] = l.output_size[static_cast<std::size_t>(i)];
      break;
    case Op::Dense:
      if (x.spatial_elements() != 1) {
        fail_layer(g, l, "needs a flat input (add a flatten layer), got " + x.str());
      }
      if (l.out_channels < 1) fail_layer(g, l, "needs out >= 1");
      r.out = Shape::flat(l.out_channels);
      r.params = counted(
          g, l,
          static_cast<long double>(x.channels) * l.out_channels + (l.bias ? l.out_channels : 0),
          "parameters");
      r.macs = r.params - (l.bias ? l.out_channels : 0);
      break;
    case Op::BatchNorm:
      r.params = 2 * x.channels;  // affine scale and shift
      break;
    case Op::GroupNorm:
      if (l.groups < 1 || x.channels % l.groups != 0)
        fail_layer(g, l,
                   "groups (" + std::to_string(l.groups) + ") must divide the channels (" +
                       std::to_string(x.channels) + ")");
      r.params = l.affine ? 2 * x.channels : 0;
      break;
    case Op::InstanceNorm:
      if (x.rank == 0) fail_layer(g, l, "needs a spatial input, got flat " + x.str());
      r.params = l.affine ? 2 * x.channels : 0;
      break;
    case Op::LayerNorm:
      r.params = l.affine ? 2 * x.channels : 0;
      break;
    case Op::ChannelScale: {
      const Shape& scale = in.back();
      if (in.size() != 2 || scale.channels != x.channels || scale.spatial_elements() != 1)
        fail_layer(g, l,
                   "needs from=X,S with S of X's channels and one element per channel: got " +
                       x.str() + " and " + scale.str());
      break;
    }
    case Op::Activation:
    case Op::Dropout:
    case Op::SoftmaxCrossEntropy:
    case Op::MSELoss:
    case Op::L1Loss:
    case Op::DiceLoss:
      break;
    case Op::Add:
      for (const Shape& s : in) {
        if (!(s == x)) fail_layer(g, l, "inputs differ in shape: " + x.str() + " and " + s.str());
      }
      break;
    case Op::Concat:
      r.out.channels = 0;
      for (const Shape& s : in) {
        // crop=1: U-Net's crop-and-copy, every input centre-cropped to the smallest
        for (std::size_t u = 0; l.crop && s.rank == x.rank && u < 3; ++u)
          r.out.size[u] = std::min(r.out.size[u], s.size[u]);
      }
      for (const Shape& s : in) {
        if (s.rank != x.rank || (s.size != x.size && !l.crop)) {
          // an encoder-decoder (unet3d) joins a skip with an upsampled tensor: they agree only
          // if every pooling before halved the input's side evenly
          fail_layer(g, l,
                     "inputs differ in spatial size: " + x.str() + " and " + s.str() +
                         " (each downsampling before it must divide the input's side evenly: "
                         "a side divisible by 2 to the number of poolings, 8 for unet3d)");
        }
        r.out.channels += s.channels;
      }
      break;
    case Op::Flatten:
      r.out = Shape::flat(x.elements());
      break;
    case Op::Upsample:
      if (l.scale < 1) fail_layer(g, l, "scale must be >= 1");
      for (int i = 0; i < x.rank; ++i) r.out.size[static_cast<std::size_t>(i)] *= l.scale;
      break;
  }
  return r;
}

// An in-place activation whose gradient needs the input (relu6 = hardtanh_, silu_) makes
// autograd save a copy of the input first: it costs a new buffer like the out-of-place op.
bool saves_output(const Layer& l) {
  if (l.op == Op::SoftmaxCrossEntropy || l.op == Op::L1Loss || l.op == Op::DiceLoss) return true;
  if (l.op != Op::Activation) return false;
  return l.activation == Activation::ReLU || l.activation == Activation::Sigmoid ||
         l.activation == Activation::Tanh || (l.inplace && l.activation == Activation::LeakyReLU);
}

bool saves_input(const Layer& l) {
  switch (l.op) {
    case Op::Conv:
    case Op::ConvTranspose:
    case Op::Dense:
    case Op::BatchNorm:
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::AdaptiveAvgPool:
    case Op::GroupNorm:
    case Op::InstanceNorm:
    case Op::LayerNorm:
    case Op::ChannelScale:
    case Op::MSELoss:
      return true;
    case Op::Activation:
      return !saves_output(l);
    default:
      return false;
  }
}

void count_flops(const Layer& l, LayerStats& s, int rank) {
  const auto n = static_cast<double>(s.output_elements);
  const auto macs = static_cast<double>(s.macs);
  switch (l.op) {
    case Op::Conv:
    case Op::ConvTranspose:
    case Op::Dense:
      s.forward_flops = 2 * macs + (l.bias ? n : 0);
      s.backward_data_flops = 2 * macs;
      s.backward_weight_flops = 2 * macs + (l.bias ? n : 0);
      break;
    case Op::BatchNorm:
    case Op::GroupNorm:
    case Op::InstanceNorm:
    case Op::LayerNorm:
      s.forward_flops = 4 * n;
      s.backward_data_flops = 4 * n;
      s.backward_weight_flops = 2 * n;
      break;
    case Op::Activation: {
      const bool cheap = l.activation == Activation::ReLU || l.activation == Activation::ReLU6 ||
                         l.activation == Activation::LeakyReLU;
      s.forward_flops = cheap ? n : 4 * n;
      s.backward_data_flops = cheap ? n : 2 * n;
      break;
    }
    case Op::MaxPool:
    case Op::AvgPool: {
      const auto k = static_cast<double>(kernel_volume(l.window, rank));
      s.forward_flops = n * k;
      s.backward_data_flops = n * k;
      break;
    }
    case Op::AdaptiveAvgPool:
      s.forward_flops = static_cast<double>(s.input_elements);
      s.backward_data_flops = static_cast<double>(s.input_elements);
      break;
    case Op::Add:
      s.forward_flops = static_cast<double>(l.inputs.size() - 1) * n;
      break;
    case Op::Dropout:
      s.forward_flops = n;
      s.backward_data_flops = n;
      break;
    case Op::SoftmaxCrossEntropy:
      s.forward_flops = 3 * n;
      s.backward_data_flops = n;
      break;
    case Op::Upsample:
      // linear: 2^rank corners per output element, a multiply and an add each
      s.forward_flops = l.upsample_mode == UpsampleMode::Linear ? 2 * std::ldexp(n, rank) : 0;
      s.backward_data_flops = l.upsample_mode == UpsampleMode::Linear ? s.forward_flops : n;
      break;
    case Op::ChannelScale:
      s.forward_flops = n;
      s.backward_data_flops = 3 * n;
      break;
    case Op::MSELoss:
    case Op::L1Loss:
      s.forward_flops = 3 * n;
      s.backward_data_flops = 2 * n;
      break;
    case Op::DiceLoss:
      s.forward_flops = 6 * n;
      s.backward_data_flops = 4 * n;
      break;
    default:
      break;
  }
}

// Saved bytes beside the activation buffers, per sample (the rule in the header comment).
std::int64_t saved_fixed_bytes(const Layer& l, const LayerStats& s) {
  switch (l.op) {
    case Op::MaxPool:
      return 8 * s.output_elements;  // int64 indices
    case Op::Dropout:
      return l.per_sample ? 4 : s.output_elements;  // float noise per sample, or uint8 mask
    case Op::SoftmaxCrossEntropy:
      return 8 * s.output.spatial_elements();  // int64 target
    case Op::GroupNorm:
      return 8 * l.groups;  // float mean and rstd per group
    case Op::InstanceNorm:  // mean and invstd per channel, the weight repeated per sample
      return (l.affine ? 12 : 8) * s.input.channels;
    case Op::LayerNorm:
      return 8 * s.input.spatial_elements();  // float mean and rstd per position
    case Op::MSELoss:
    case Op::DiceLoss:
      return 4 * s.output_elements;  // the float target (one-hot for dice)
    default:
      return 0;
  }
}

}  // namespace

WindowHalos window_halos(const Window& w, int rank, bool transposed) {
  WindowHalos h;
  for (std::size_t u = 0; u < static_cast<std::size_t>(rank); ++u) {
    const std::int64_t e = w.dilation[u] * (w.kernel[u] - 1) + 1;
    const std::int64_t s = std::max<std::int64_t>(w.stride[u], 1);
    const std::int64_t p = std::clamp<std::int64_t>(w.padding[u], 0, e - 1);
    h.x.below[u] = h.x_odd.below[u] = p;
    h.x.above[u] = std::max<std::int64_t>(0, e - s - p);
    h.x_odd.above[u] = e - 1 - p;
    h.dy.below[u] = (e - 1 - p) / s;
    h.dy_odd.below[u] = (e - 1 - p + s - 1) / s;
    h.dy.above[u] = h.dy_odd.above[u] = (p + s - 1) / s;
    h.stride[u] = transposed ? 1 : s;
  }
  if (transposed) {
    std::swap(h.x, h.dy);
    h.x_odd = h.x;
    h.dy_odd = h.dy;
  }
  return h;
}

namespace {

// Each layer's last reader and the elements crossing a pipeline cut before it.
void count_cut_crossings(const Graph& g, ModelStats& m) {
  const auto& layers = g.layers();
  // a pipeline cut before layer i sends every tensor made before i and read at or after it
  // (docs/cost-model.md §data-pipeline: a_k includes the skip tensors crossing it): tensor j
  // crosses the cuts j + 1 .. its last reader
  std::vector<std::size_t> last_reader(layers.size(), 0);
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (int j : layers[i].inputs)
      last_reader[static_cast<std::size_t>(j)] =
          std::max(last_reader[static_cast<std::size_t>(j)], i);
  // tensors of up to 2^48 elements each: sums past 64 bits in theory
  std::vector<long double> change(layers.size() + 1, 0);
  for (std::size_t j = 0; j < layers.size(); ++j) {
    m.layers[j].last_reader = static_cast<std::int64_t>(std::max(last_reader[j], j));
    if (last_reader[j] <= j) continue;  // read by nobody (the last layer) or only by itself
    change[j + 1] += static_cast<long double>(m.layers[j].output_elements);
    change[last_reader[j] + 1] -= static_cast<long double>(m.layers[j].output_elements);
  }
  long double crossing = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    crossing += change[i];
    if (crossing > static_cast<long double>(std::int64_t{1} << 62))
      throw SizeLimitError("model '" + g.name() + "': the tensors crossing a cut before layer '" +
                           m.layers[i].name + "' hold more than 2^62 elements (sizes too large)");
    m.layers[i].crossing_elements = static_cast<std::int64_t>(crossing);
  }
}

// The model's totals within 2^62, or a SizeLimitError.
void check_totals(const Graph& g, const ModelStats& m) {
  // the totals too: layers each within 2^62 can sum past 64 bits (three convolutions of
  // 2^61.9 MACs printed a negative model); 8 bytes per saved element at most
  long double params = 0, macs = 0, saved_bytes = 0;
  for (const auto& s : m.layers) {
    params += static_cast<long double>(s.params);
    macs += static_cast<long double>(s.macs);
    saved_bytes += 8.0L * static_cast<long double>(s.saved_elements) +
                   static_cast<long double>(s.saved_fixed_bytes);
  }
  constexpr long double kMost = static_cast<long double>(std::int64_t{1} << 62);
  for (const auto& [total, what] : {std::pair{params, "parameters"}, std::pair{macs, "MACs"},
                                    std::pair{saved_bytes, "saved bytes per sample"}}) {
    if (total > kMost)
      throw SizeLimitError("model '" + g.name() + "': " + what +
                           " in all, more than 2^62 (sizes too large)");
  }
}

}  // namespace

ModelStats analyze(const Graph& g, const Shape& input) {
  if (input.rank != g.spatial_rank()) {
    throw InputError("model '" + g.name() + "' takes " + std::to_string(g.spatial_rank()) +
                     "-D inputs (" + (g.spatial_rank() == 3 ? "CxDxHxW" : "CxHxW") + "), got " +
                     input.str());
  }
  bool empty = input.channels < 1;
  for (int i = 0; i < input.rank; ++i) empty = empty || input.size[static_cast<std::size_t>(i)] < 1;
  if (empty)
    throw InputError("model '" + g.name() + "': input " + input.str() + " has no elements");
  if (!input.within_limits())
    throw SizeLimitError("model '" + g.name() + "': input " + input.str() + " " + kTooLarge);
  const auto& layers = g.layers();
  if (layers.empty() || layers.front().op != Op::Input) {
    throw InputError("model '" + g.name() + "': the first layer must be the input");
  }
  ModelStats m;
  m.name = g.name();
  m.input = input;
  m.layers.resize(layers.size());
  std::vector<int> buffer(layers.size());  // layer whose buffer this output lives in
  std::vector<std::vector<std::int32_t>> savers(layers.size());  // per buffer owner, ascending
  std::vector<bool> needs_grad(layers.size(), false);

  for (std::size_t i = 0; i < layers.size(); ++i) {
    const Layer& l = layers[i];
    LayerStats& s = m.layers[i];
    s.name = l.name;
    s.op = l.op;
    std::vector<Shape> in;
    bool grad_in = false;
    for (int j : l.inputs) {
      const auto u = static_cast<std::size_t>(j);
      in.push_back(m.layers[u].output);
      s.input_elements += m.layers[u].output_elements;
      grad_in = grad_in || needs_grad[u];
    }
    if (l.op == Op::Input) in.push_back(input);
    const Inferred r = infer(g, l, in);
    if (!r.out.within_limits()) {
      fail_layer_too_large(g, l, r.out);
    }
    s.input = in.front();
    s.output = r.out;
    s.params = r.params;
    s.macs = r.macs;
    if (l.op == Op::Conv || l.op == Op::ConvTranspose) s.groups = l.groups;
    s.conv3x3_stride1 = l.op == Op::Conv && s.input.rank == 2 && l.groups == 1 &&
                        l.window.kernel[0] == 3 && l.window.kernel[1] == 3 &&
                        l.window.stride[0] == 1 && l.window.stride[1] == 1 &&
                        l.window.dilation[0] == 1 && l.window.dilation[1] == 1;
    s.output_elements = r.out.elements();
    count_flops(l, s, s.input.rank);
    if (!grad_in) s.backward_data_flops = 0;  // autograd skips dL/dx of the data
    if (s.params == 0) s.backward_weight_flops = 0;
    needs_grad[i] = grad_in || s.params > 0;

    const bool alias =
        (l.op == Op::Activation && l.inplace && saves_output(l)) || l.op == Op::Flatten;
    buffer[i] = alias ? buffer[static_cast<std::size_t>(l.inputs.front())] : static_cast<int>(i);
    s.buffer_layer = buffer[i];
    if (l.op != Op::Input && l.op != Op::Flatten) {
      s.read_elements = s.input_elements;
      s.written_elements = s.output_elements;
    }
    const auto save = [&](int b) {
      auto& by = savers[static_cast<std::size_t>(b)];
      if (by.empty() || by.back() != static_cast<std::int32_t>(i))
        by.push_back(static_cast<std::int32_t>(i));
    };
    if (saves_input(l)) save(buffer[static_cast<std::size_t>(l.inputs.front())]);
    if (l.op == Op::ChannelScale) save(buffer[static_cast<std::size_t>(l.inputs.back())]);
    if (saves_output(l)) save(buffer[i]);
    if (l.op == Op::Conv || l.op == Op::ConvTranspose || l.op == Op::MaxPool ||
        l.op == Op::AvgPool) {
      // ParaDL's w dims [C, F, K...]: pools have C = F = 0 (docs/cost-model.md §paradl-notation)
      const bool pool = l.op == Op::MaxPool || l.op == Op::AvgPool;
      s.weight_dims = {pool ? 0 : s.input.channels, pool ? 0 : s.output.channels};
      for (int d = 0; d < s.input.rank; ++d)
        s.weight_dims.push_back(l.window.kernel[static_cast<std::size_t>(d)]);
      s.halos = window_halos(l.window, s.input.rank, l.op == Op::ConvTranspose);
    }
    s.saved_fixed_bytes = saved_fixed_bytes(l, s);
  }
  std::vector<int> first_saver(layers.size(), -1);  // per buffer owner: its earliest saver
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (savers[i].empty()) continue;
    if (buffer[i] == static_cast<int>(i)) m.layers[i].saved_elements = m.layers[i].output_elements;
    first_saver[i] = savers[i].front();
    m.layers[i].first_saver = first_saver[i];
  }
  std::vector<std::vector<std::int32_t>> readers(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (int j : layers[i].inputs)
      if (readers[static_cast<std::size_t>(j)].empty() ||
          readers[static_cast<std::size_t>(j)].back() != static_cast<std::int32_t>(i))
        readers[static_cast<std::size_t>(j)].push_back(static_cast<std::int32_t>(i));
  for (const auto& r : readers) {
    m.reader_begin.push_back(static_cast<std::int32_t>(m.readers.size()));
    m.readers.insert(m.readers.end(), r.begin(), r.end());
  }
  m.reader_begin.push_back(static_cast<std::int32_t>(m.readers.size()));
  for (const auto& s : savers) {
    m.saver_begin.push_back(static_cast<std::int32_t>(m.savers.size()));
    m.savers.insert(m.savers.end(), s.begin(), s.end());
  }
  m.saver_begin.push_back(static_cast<std::int32_t>(m.savers.size()));
  autograd_liveness(g, needs_grad, first_saver, m);
  count_cut_crossings(g, m);
  check_totals(g, m);
  return m;
}

std::int64_t ModelStats::params() const {
  return std::accumulate(layers.begin(), layers.end(), std::int64_t{0},
                         [](std::int64_t a, const LayerStats& l) { return a + l.params; });
}
std::int64_t ModelStats::macs() const {
  return std::accumulate(layers.begin(), layers.end(), std::int64_t{0},
                         [](std::int64_t a, const LayerStats& l) { return a + l.macs; });
}
double ModelStats::forward_flops() const {
  double t = 0;
  for (const auto& l : layers) t += l.forward_flops;
  return t;
}
double ModelStats::backward_flops() const {
  double t = 0;
  for (const auto& l : layers) t += l.backward_data_flops + l.backward_weight_flops;
  return t;
}
std::int64_t ModelStats::saved_elements() const {
  return std::accumulate(layers.begin(), layers.end(), std::int64_t{0},
                         [](std::int64_t a, const LayerStats& l) { return a + l.saved_elements; });
}
std::int64_t ModelStats::saved_bytes_per_sample(int activation_bytes) const {
  std::int64_t b = 0;
  for (const auto& l : layers) b += l.saved_elements * activation_bytes + l.saved_fixed_bytes;
  return b;
}

}  // namespace paradise::model
