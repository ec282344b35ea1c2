#include "paradise/model/graph.hpp"

#include <stdexcept>

#include "paradise/core/error.hpp"

namespace paradise::model {

Graph::Graph(std::string name, int spatial_rank)
    : name_(std::move(name)), spatial_rank_(spatial_rank) {
  if (spatial_rank < 1 || spatial_rank > 3) {
    throw InputError("model '" + name_ + "': spatial dimensions must be 1, 2 or 3, got " +
                     std::to_string(spatial_rank));
  }
}

int Graph::add(Layer layer) {
  if (layer.name.empty()) throw InputError("model '" + name_ + "': a layer has no name");
  if (find(layer.name) >= 0) {
    throw InputError("model '" + name_ + "': duplicate layer name '" + layer.name + "'");
  }
  const int index = static_cast<int>(layers_.size());
  for (int in : layer.inputs) {
    if (in < 0 || in >= index) {
      throw std::logic_error("model '" + name_ + "': layer '" + layer.name +
                             "' refers to a layer that is not before it");
    }
  }
  if (layer.op == Op::Input && index != 0) {
    throw InputError("model '" + name_ + "': only the first layer may be the input");
  }
  if (layer.op != Op::Input && layer.inputs.empty()) {
    throw InputError("model '" + name_ + "': layer '" + layer.name + "' has no input");
  }
  index_by_name_.emplace(layer.name, index);
  layers_.push_back(std::move(layer));
  return index;
}

int Graph::find(std::string_view name) const {
  const auto it = index_by_name_.find(std::string(name));
  return it == index_by_name_.end() ? -1 : it->second;
}

int Graph::append(std::string name, Op op, std::vector<int> inputs, Layer proto) {
  proto.name = std::move(name);
  proto.op = op;
  proto.inputs = std::move(inputs);
  return add(std::move(proto));
}

int Graph::input() {
  return append("input", Op::Input, {});
}

int Graph::conv(int x, std::string name, std::int64_t out, std::int64_t k, std::int64_t s,
                std::int64_t p, bool bias, std::int64_t groups) {
  Layer l;
  l.out_channels = out;
  l.window = Window::cube(k, s, p);
  l.bias = bias;
  l.groups = groups;
  return append(std::move(name), Op::Conv, {x}, l);
}

int Graph::conv_transpose(int x, std::string name, std::int64_t out, std::int64_t k, std::int64_t s,
                          bool bias) {
  Layer l;
  l.out_channels = out;
  l.window = Window::cube(k, s);
  l.bias = bias;
  return append(std::move(name), Op::ConvTranspose, {x}, l);
}

int Graph::max_pool(int x, std::string name, std::int64_t k, std::int64_t s, std::int64_t p,
                    bool ceil_mode) {
  Layer l;
  l.window = Window::cube(k, s, p);
  l.ceil_mode = ceil_mode;
  return append(std::move(name), Op::MaxPool, {x}, l);
}

int Graph::avg_pool(int x, std::string name, std::int64_t k, std::int64_t s, std::int64_t p) {
  Layer l;
  l.window = Window::cube(k, s, p);
  return append(std::move(name), Op::AvgPool, {x}, l);
}

int Graph::adaptive_avg_pool(int x, std::string name, std::int64_t out) {
  Layer l;
  l.output_size = {out, out, out};
  return append(std::move(name), Op::AdaptiveAvgPool, {x}, l);
}

int Graph::dense(int x, std::string name, std::int64_t out, bool bias) {
  Layer l;
  l.out_channels = out;
  l.bias = bias;
  return append(std::move(name), Op::Dense, {x}, l);
}

int Graph::batch_norm(int x, std::string name) {
  return append(std::move(name), Op::BatchNorm, {x});
}

int Graph::act(int x, std::string name, Activation a, bool inplace) {
  Layer l;
  l.activation = a;
  l.inplace = inplace;
  return append(std::move(name), Op::Activation, {x}, l);
}

int Graph::add(std::vector<int> xs, std::string name) {
  return append(std::move(name), Op::Add, std::move(xs));
}

int Graph::concat(std::vector<int> xs, std::string name) {
  return append(std::move(name), Op::Concat, std::move(xs));
}

int Graph::flatten(int x, std::string name) {
  return append(std::move(name), Op::Flatten, {x});
}
int Graph::dropout(int x, std::string name) {
  return append(std::move(name), Op::Dropout, {x});
}
int Graph::loss(int x, std::string name) {
  return append(std::move(name), Op::SoftmaxCrossEntropy, {x});
}

int Graph::upsample(int x, std::string name, std::int64_t scale, UpsampleMode mode) {
  Layer l;
  l.scale = scale;
  l.upsample_mode = mode;
  return append(std::move(name), Op::Upsample, {x}, l);
}

int Graph::group_norm(int x, std::string name, std::int64_t groups, bool affine) {
  Layer l;
  l.groups = groups;
  l.affine = affine;
  return append(std::move(name), Op::GroupNorm, {x}, l);
}
int Graph::instance_norm(int x, std::string name, bool affine) {
  Layer l;
  l.affine = affine;
  return append(std::move(name), Op::InstanceNorm, {x}, l);
}
int Graph::layer_norm(int x, std::string name, bool affine) {
  Layer l;
  l.affine = affine;
  return append(std::move(name), Op::LayerNorm, {x}, l);
}
int Graph::channel_scale(int x, int s, std::string name) {
  return append(std::move(name), Op::ChannelScale, {x, s});
}
int Graph::stochastic_depth(int x, std::string name) {
  Layer l;
  l.per_sample = true;
  return append(std::move(name), Op::Dropout, {x}, l);
}
int Graph::crop_concat(std::vector<int> xs, std::string name) {
  Layer l;
  l.crop = true;
  return append(std::move(name), Op::Concat, std::move(xs), l);
}
int Graph::loss(int x, std::string name, Op op) {
  return append(std::move(name), op, {x});
}

}  // namespace paradise::model
