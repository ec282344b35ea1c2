// Parser of *.model files:
//   # comment                      (anywhere after '#')
//   model NAME                     (first statement)
//   input CxHxW | CxDxHxW          (second statement: default input, sets 2-D or 3-D)
//   LAYER OP [key=value ...]       (one per line; input = previous layer unless from=A,B)
#include "paradise/model/model_file.hpp"

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/text.hpp"

namespace paradise::model {
namespace {

struct OpSpec {
  Op op;
  std::set<std::string> keys;  ///< allowed keys besides `from`
  std::set<std::string> required;
};

const std::map<std::string, OpSpec>& op_specs() {
  static const std::map<std::string, OpSpec> specs = [] {
    std::map<std::string, OpSpec> m;
    m["conv"] = {Op::Conv, {"out", "k", "s", "p", "pend", "d", "groups", "bias"}, {"out", "k"}};
    m["conv_transpose"] = {
        Op::ConvTranspose, {"out", "k", "s", "p", "d", "outpad", "groups", "bias"}, {"out", "k"}};
    m["maxpool"] = {Op::MaxPool, {"k", "s", "p", "ceil"}, {"k"}};
    m["avgpool"] = {Op::AvgPool, {"k", "s", "p", "ceil"}, {"k"}};
    m["adaptive_avgpool"] = {Op::AdaptiveAvgPool, {"size"}, {}};
    m["dense"] = {Op::Dense, {"out", "bias"}, {"out"}};
    m["batchnorm"] = {Op::BatchNorm, {}, {}};
    m["groupnorm"] = {Op::GroupNorm, {"groups", "affine"}, {"groups"}};
    m["instancenorm"] = {Op::InstanceNorm, {"affine"}, {}};
    m["layernorm"] = {Op::LayerNorm, {"affine"}, {}};
    for (const char* a :
         {"relu", "relu6", "leaky_relu", "sigmoid", "tanh", "gelu", "silu", "hardswish"}) {
      m[a] = {Op::Activation, {"inplace"}, {}};
    }
    m["add"] = {Op::Add, {}, {}};
    m["concat"] = {Op::Concat, {"crop"}, {}};
    m["channel_scale"] = {Op::ChannelScale, {}, {}};
    m["flatten"] = {Op::Flatten, {}, {}};
    m["dropout"] = {Op::Dropout, {}, {}};
    m["stochastic_depth"] = {Op::Dropout, {}, {}};
    m["softmax_ce"] = {Op::SoftmaxCrossEntropy, {}, {}};
    m["mse_loss"] = {Op::MSELoss, {}, {}};
    m["l1_loss"] = {Op::L1Loss, {}, {}};
    m["dice_loss"] = {Op::DiceLoss, {}, {}};
    m["upsample"] = {Op::Upsample, {"scale", "mode"}, {"scale"}};
    return m;
  }();
  return specs;
}

std::string known_ops() {
  std::string s;
  for (const auto& [name, spec] : op_specs()) s += (s.empty() ? "" : ", ") + name;
  return s;
}

// "3" or "3x3x1": one value per spatial dimension (a single value is repeated).
// Window sizes, strides, paddings, scales, groups and widths above 2^20 are no CNN's; the
// bound keeps the shape arithmetic far from 64-bit overflow (Shape::kMaxExtent).
constexpr std::int64_t kMaxAttribute = std::int64_t{1} << 20;

void check_at_most(std::int64_t v, std::string_view text, const Origin& o, const std::string& key) {
  if (v > kMaxAttribute) fail_input(o, key, text, "must be <= 1048576 (2^20)");
}

std::array<std::int64_t, 3> per_dim(std::string_view text, int rank, const Origin& o,
                                    const std::string& key, bool allow_zero) {
  const auto parts = split(text, 'x');
  if (parts.size() != 1 && static_cast<int>(parts.size()) != rank) {
    fail_input(o, key, text, "give one value or " + std::to_string(rank) + " values joined by 'x'");
  }
  std::array<std::int64_t, 3> v{};
  for (int i = 0; i < 3; ++i) {
    const auto part =
        parts[parts.size() == 1 ? 0 : static_cast<std::size_t>(std::min(i, rank - 1))];
    try {
      v[static_cast<std::size_t>(i)] = parse_int(part, o, key);
    } catch (const InputError&) {
      fail_input(o, key, text, "expected an integer or integers joined by 'x'");
    }
    if (!allow_zero && v[static_cast<std::size_t>(i)] < 1) fail_input(o, key, text, "must be >= 1");
    check_at_most(v[static_cast<std::size_t>(i)], text, o, key);
  }
  return v;
}

bool flag(std::string_view text, const Origin& o, const std::string& key) {
  if (text == "1" || text == "true" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "no") return false;
  fail_input(o, key, text, "expected 0 or 1 (or false / true, no / yes)");
}

// An upsample's mode= (PyTorch's names): nearest, or bilinear in 2-D and trilinear in 3-D.
UpsampleMode upsample_mode(const std::string& value, int rank, const Origin& o) {
  if (value == "nearest") return UpsampleMode::Nearest;
  if ((value == "bilinear" && rank == 2) || (value == "trilinear" && rank == 3) ||
      (value == "linear" && rank == 1))
    return UpsampleMode::Linear;
  fail_input(o, "mode", value,
             std::string("expected nearest or ") +
                 (rank == 3   ? "trilinear"
                  : rank == 2 ? "bilinear"
                              : "linear") +
                 " (a " + std::to_string(rank) + "-D model)");
}

// One key=value of a layer line (the key allowed for its op), into the layer.
void apply_key(Layer& l, const std::string& key, const std::string& value, int rank,
               const Origin& o, bool& stride_given) {
  if (key == "out") {
    l.out_channels = parse_int(value, o, key);
    if (l.out_channels < 1) fail_input(o, key, value, "must be >= 1");
    check_at_most(l.out_channels, value, o, key);
  } else if (key == "k") {
    l.window.kernel = per_dim(value, rank, o, key, false);
  } else if (key == "s") {
    l.window.stride = per_dim(value, rank, o, key, false);
    stride_given = true;
  } else if (key == "p") {
    l.window.padding = per_dim(value, rank, o, key, true);
  } else if (key == "pend") {  // the end's padding; the extra over p is set in finish_layer
    l.window.padding_end_extra = per_dim(value, rank, o, key, true);
  } else if (key == "d") {
    l.window.dilation = per_dim(value, rank, o, key, false);
  } else if (key == "outpad") {
    l.window.output_padding = per_dim(value, rank, o, key, true);
  } else if (key == "size") {
    l.output_size = per_dim(value, rank, o, key, false);
  } else if (key == "groups") {
    l.groups = parse_int(value, o, key);
    if (l.groups < 1) fail_input(o, key, value, "must be >= 1");
    check_at_most(l.groups, value, o, key);
  } else if (key == "scale") {
    l.scale = parse_int(value, o, key);
    if (l.scale < 1) fail_input(o, key, value, "must be >= 1");
    check_at_most(l.scale, value, o, key);
  } else if (key == "bias") {
    l.bias = flag(value, o, key);
  } else if (key == "ceil") {
    l.ceil_mode = flag(value, o, key);
  } else if (key == "inplace") {
    l.inplace = flag(value, o, key);
  } else if (key == "affine") {
    l.affine = flag(value, o, key);
  } else if (key == "crop") {
    l.crop = flag(value, o, key);
  } else if (key == "mode") {
    l.upsample_mode = upsample_mode(value, rank, o);
  }
}

// A layer's required keys, defaults and input count checked once its line is read; a layer
// without from= reads the previous one.
void finish_layer(Layer& l, const OpSpec& spec, const std::set<std::string>& seen,
                  const std::string& op_name, const Origin& o, bool stride_given, int previous) {
  for (const auto& req : spec.required) {
    if (!seen.contains(req)) {
      std::string why = "op '";
      why.append(op_name).append("' needs ").append(req).append("=");
      fail_input(o, "layer", l.name, why);
    }
  }
  if ((l.op == Op::MaxPool || l.op == Op::AvgPool) && !stride_given)
    l.window.stride = l.window.kernel;
  for (std::size_t u = 0; u < 3; ++u) {
    auto& extra = l.window.padding_end_extra[u];
    if (!seen.contains("pend")) extra = l.window.padding[u];
    if (extra < l.window.padding[u])
      fail_input(o, "pend", std::to_string(extra), "must be at least p (the start's padding)");
    extra -= l.window.padding[u];
  }
  // PyTorch's ConvTranspose: output padding must be smaller than the stride or the dilation
  for (std::size_t u = 0; u < l.window.output_padding.size(); ++u) {
    if (l.window.output_padding[u] >= std::max(l.window.stride[u], l.window.dilation[u]))
      fail_input(o, "outpad", std::to_string(l.window.output_padding[u]),
                 "must be smaller than the stride or the dilation (PyTorch's ConvTranspose)");
  }
  if (l.inputs.empty()) l.inputs.push_back(previous);
  // a concatenation of one tensor is a copy (DenseNet's first layer: torch.cat([x], 1))
  if (l.op == Op::Add && l.inputs.size() < 2) {
    fail_input(o, "layer", l.name, "op '" + op_name + "' needs from=A,B with at least two layers");
  }
  if (l.op == Op::ChannelScale && l.inputs.size() != 2) {
    fail_input(o, "layer", l.name,
               "op '" + op_name + "' needs from=X,S: the tensor and its per-channel scale");
  }
  if (l.op != Op::Add && l.op != Op::Concat && l.op != Op::ChannelScale && l.inputs.size() != 1) {
    fail_input(o, "layer", l.name, "op '" + op_name + "' takes exactly one input");
  }
}

}  // namespace

ModelFile parse_model_file(std::istream& in, const std::string& file_name) {
  std::optional<std::string> name;
  std::optional<Shape> input;
  std::optional<Graph> graph;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const Origin o{file_name, line_no};
    std::string_view text = line;
    if (const auto hash = text.find('#'); hash != std::string_view::npos)
      text = text.substr(0, hash);
    std::istringstream words{std::string(trim(text))};
    std::vector<std::string> w;
    for (std::string t; words >> t;) w.push_back(t);
    if (w.empty()) continue;
    if (!name) {
      if (w[0] != "model" || w.size() != 2)
        fail_input(o, "statement", w[0], "the file must start with 'model NAME'");
      name = w[1];
      continue;
    }
    if (!input) {
      if (w[0] != "input" || w.size() != 2)
        fail_input(o, "statement", w[0],
                   "the second statement must be 'input CxHxW' or 'input CxDxHxW'");
      input = Shape::parse(w[1], o, "input");
      if (input->rank < 1) fail_input(o, "input", w[1], "needs at least one spatial dimension");
      graph.emplace(*name, input->rank);
      graph->input();
      continue;
    }
    if (w.size() < 2) fail_input(o, "layer", w[0], "expected 'NAME OP [key=value ...]'");
    const auto spec_it = op_specs().find(w[1]);
    if (spec_it == op_specs().end() && (w[0] == "model" || w[0] == "input"))
      fail_input(o, "statement", w[0], "given twice (a file has one model and one input line)");
    if (spec_it == op_specs().end()) fail_input(o, "op", w[1], "unknown op; known: " + known_ops());
    const OpSpec& spec = spec_it->second;
    Layer l;
    l.name = w[0];
    l.op = spec.op;
    l.defined_at = o;
    if (graph->find(l.name) >= 0) fail_input(o, "layer", l.name, "duplicate layer name");
    if (spec.op == Op::Activation) l.activation = *activation_from_name(w[1]);
    if (spec.op == Op::ConvTranspose || spec.op == Op::Dense) l.bias = true;
    if (spec.op == Op::InstanceNorm) l.affine = false;  // PyTorch's InstanceNorm default
    l.per_sample = w[1] == "stochastic_depth";
    const int rank = input->rank;
    std::set<std::string> seen;
    bool stride_given = false;
    for (std::size_t i = 2; i < w.size(); ++i) {
      const auto eq = w[i].find('=');
      if (eq == std::string::npos) fail_input(o, "argument", w[i], "expected key=value");
      const std::string key = w[i].substr(0, eq);
      const std::string value = w[i].substr(eq + 1);
      if (!seen.insert(key).second) fail_input(o, key, value, "key given twice");
      if (key == "from") {
        for (auto part : split(value, ',')) {
          const int j = graph->find(trim(part));
          if (j < 0)
            fail_input(o, "from", value,
                       "no earlier layer named '" + std::string(trim(part)) + "'");
          l.inputs.push_back(j);
        }
        continue;
      }
      if (!spec.keys.contains(key)) fail_input(o, key, value, "not a key of op '" + w[1] + "'");
      apply_key(l, key, value, rank, o, stride_given);
    }
    finish_layer(l, spec, seen, w[1], o, stride_given,
                 static_cast<int>(graph->layers().size()) - 1);
    graph->add(std::move(l));
  }
  if (!graph)
    fail_input({file_name, line_no}, "file", file_name, "no 'model' and 'input' statements");
  if (graph->layers().size() < 2) fail_input({file_name, line_no}, "file", file_name, "no layers");
  return ModelFile{std::move(*graph), *input};
}

ModelFile read_model_file(const std::string& path) {
  std::istringstream in(read_input_file(path, "model file"));
  return parse_model_file(in, path);
}

}  // namespace paradise::model
