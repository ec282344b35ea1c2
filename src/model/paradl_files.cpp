#include "paradise/model/paradl_files.hpp"

#include <algorithm>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/text.hpp"

namespace paradise::model {
namespace {

struct Line {
  int number;
  std::string text;
};

std::vector<Line> content_lines(std::istream& in) {
  std::vector<Line> lines;
  std::string s;
  int n = 0;
  while (std::getline(in, s)) {
    ++n;
    const std::string_view t = trim(s);
    if (t.empty() || t.front() == '#') continue;
    lines.push_back({n, std::string(t)});
  }
  return lines;
}

// A product of sizes, refused by name above 2^48 instead of overflowing.
std::int64_t product(const std::vector<std::int64_t>& v, const Origin& o, std::string_view key,
                     std::string_view text) {
  long double p = 1;
  for (auto x : v) p *= static_cast<long double>(x);
  if (p > static_cast<long double>(std::int64_t{1} << 48))
    fail_input(o, key, text, "too large: more than 2^48 elements");
  return static_cast<std::int64_t>(p);
}

// "16x510x510x510" where zeros are allowed (ParaDL writes w of a ReLU as 16x16x0x0).
std::vector<std::int64_t> dims_allow_zero(std::string_view text, const Origin& o,
                                          std::string_view key) {
  std::vector<std::int64_t> d;
  for (auto part : split(trim(text), 'x')) d.push_back(parse_int(part, o, key));
  return d;
}

Shape shape_of(const std::vector<std::int64_t>& d, const Origin& o, std::string_view key,
               std::string_view text) {
  if (d.empty() || d.size() > 4) fail_input(o, key, text, "expected C x W x H [x D]");
  Shape s;
  s.channels = d[0];
  s.rank = static_cast<int>(d.size()) - 1;
  for (std::size_t i = 1; i < d.size(); ++i) s.size[i - 1] = d[i];
  if (!s.within_limits())
    fail_input(o, key, text, "too large: at most 2^31 - 1 per dimension and 2^48 elements");
  return s;
}

Op op_of(std::string_view name, const Origin& o) {
  const std::string n = lower(name);
  if (n.starts_with("conv")) return Op::Conv;
  if (n.starts_with("fc")) return Op::Dense;
  if (n.starts_with("relu")) return Op::Activation;
  if (n.starts_with("bnorm")) return Op::BatchNorm;
  if (n.starts_with("mpool")) return Op::MaxPool;
  if (n.starts_with("apool")) return Op::AvgPool;
  if (n.starts_with("add")) return Op::Add;
  if (n.starts_with("dropout")) return Op::Dropout;
  fail_input(o, "layer", name,
             "unknown ParaDL layer kind (names start with CONV, FC, RELU, BNORM, MPOOL, APOOL, ADD "
             "or DROPOUT)");
}

// ParaDL's estimate_layer_flop (parallel_analysis.py, docs/cost-model.md §paradl-compute): forward
// FLOPs CONV 2*C*F*K^d*|Y|, POOL C*F*K^d*|Y| with C = F = channels, RELU |y|, BNORM 4|x|, ADD |y|,
// FC |w|; the total weight is 2 x forward + |w|.
double paradl_forward_flops(Op op, const Shape& x, const Shape& y,
                            const std::vector<std::int64_t>& w) {
  const auto wy = static_cast<double>(y.spatial_elements());
  double k = 1;
  for (std::size_t i = 2; i < w.size(); ++i) k *= static_cast<double>(w[i]);
  switch (op) {
    case Op::Conv:
      return 2.0 * static_cast<double>(x.channels * y.channels) * k * wy;
    case Op::MaxPool:
    case Op::AvgPool:
      return static_cast<double>(x.channels * y.channels) * k * wy;
    case Op::Activation:
    case Op::Add:
      return static_cast<double>(y.elements());
    case Op::BatchNorm:
      return 4.0 * static_cast<double>(x.elements());
    case Op::Dense: {
      double n = 1;
      for (auto d : w) n *= static_cast<double>(d);
      return n;
    }
    default:
      return 0;
  }
}

// Checks that every ParaDL file we hold satisfies (tests/data/paradl/model): a
// layer's x and y have the Input's spatial rank; CONV, FC and pooling w are C_in x C_out x
// K... (rank + 2 numbers; 0x0xK... for pooling), with CONV/FC C_in and C_out those of x and
// y, since the FLOP and weight counts above read them from there (an FC's w may also be
// inputs x outputs).
void check_layer_shapes(const LayerStats& l, int rank, const Origin& o,
                        const std::vector<std::string_view>& f) {
  const std::string spatial = rank == 3 ? "C x W x H x D" : "C x W x H";  // ParaDL's order
  if (l.input.rank != rank)
    fail_input(o, "x", f[1], "expected " + spatial + ", the rank of the file's Input line");
  if (l.output.rank != rank)
    fail_input(o, "y", f[3], "expected " + spatial + ", the rank of the file's Input line");
  const bool weighted = l.op == Op::Conv || l.op == Op::Dense;
  if (!weighted && l.op != Op::MaxPool && l.op != Op::AvgPool) return;
  const auto& w = l.weight_dims;
  // an FC's w may also be written as a matrix: inputs (all of x) x outputs
  if (l.op == Op::Dense && w.size() == 2) {
    if (w[0] != l.input.elements())
      fail_input(o, "w", f[2],
                 "inputs " + std::to_string(w[0]) + " are not x's " +
                     std::to_string(l.input.elements()) + " elements (w = inputs x outputs)");
    if (w[1] != l.output.channels)
      fail_input(o, "w", f[2],
                 "outputs " + std::to_string(w[1]) + " are not y's " +
                     std::to_string(l.output.channels) + " channels");
    return;
  }
  if (static_cast<int>(w.size()) != rank + 2)
    fail_input(o, "w", f[2],
               std::string("expected ") + (weighted ? "C_in x C_out" : "0 x 0") + " x " +
                   std::to_string(rank) + " kernel sizes for " + l.name);
  for (std::size_t i = 2; i < w.size(); ++i)
    if (w[i] < 1) fail_input(o, "w", f[2], "a kernel size must be at least 1");
  if (!weighted) return;
  if (w[0] != l.input.channels)
    fail_input(o, "w", f[2],
               "C_in " + std::to_string(w[0]) + " is not x's " + std::to_string(l.input.channels) +
                   " channels");
  if (w[1] != l.output.channels)
    fail_input(o, "w", f[2],
               "C_out " + std::to_string(w[1]) + " is not y's " +
                   std::to_string(l.output.channels) + " channels");
}

// A .net layer's window from K (w's dims after C and F) and its shapes: stride x / y rounded
// (a pool's 2, also a ceil-mode one's 113 -> 57; a convolution's 1), and the padding that
// gives y's extent, ((y - 1) s + K - x) / 2 (a 'same' convolution's (K - 1) / 2, a 'valid'
// one's 0).
WindowHalos net_file_halos(const LayerStats& l) {
  const auto rank = static_cast<std::size_t>(l.input.rank);
  if (l.weight_dims.size() != 2 + rank || l.weight_dims[2] <= 0 || l.output.rank != l.input.rank)
    return {};
  Window w;
  for (std::size_t u = 0; u < rank; ++u) {
    const std::int64_t x = l.input.size[u], y = l.output.size[u], k = l.weight_dims[2 + u];
    w.kernel[u] = std::max<std::int64_t>(k, 1);
    w.stride[u] = y > 0 ? std::max<std::int64_t>(1, (x + y / 2) / y) : 1;
    w.padding[u] = std::max<std::int64_t>(0, ((y - 1) * w.stride[u] + w.kernel[u] - x) / 2);
  }
  return window_halos(w, l.input.rank, false);
}

}  // namespace

double ParaDlNet::measured_time_per_sample_s() const {
  double t = 0;
  for (const auto& l : stats.layers) t += l.measured_time_s;
  return t;
}

ParaDlNet parse_paradl_net(std::istream& in, const std::string& file_name) {
  const auto lines = content_lines(in);
  ParaDlNet net;
  const auto header = [&](std::size_t i, const char* key) -> std::string {
    const Origin o{file_name, i < lines.size() ? lines[i].number : 0};
    if (i >= lines.size()) fail_input(o, key, "", "missing header line");
    const auto parts = split(lines[i].text, '|');
    if (parts.size() != 2 || trim(parts[0]) != key) {
      fail_input(o, key, lines[i].text, std::string("expected '") + key + "|...'");
    }
    // a name shows in tables, sweep axes and attributes: never empty
    if (trim(parts[1]).empty()) fail_input(o, key, "", "must not be empty");
    return std::string(trim(parts[1]));
  };
  net.dataset = header(0, "Dataset");
  const std::string input = header(1, "Input");
  const Origin input_origin{file_name, lines[1].number};
  const auto input_dims = parse_dims(input, input_origin, "Input");
  if (input_dims.size() != 4 && input_dims.size() != 5)
    fail_input(input_origin, "Input", input, "expected N x C x W x H [x D] (N samples)");
  net.samples = input_dims[0];
  net.stats.input =
      shape_of({input_dims.begin() + 1, input_dims.end()}, input_origin, "Input", input);
  net.stats.name = header(2, "Model");
  for (std::size_t i = 3; i < lines.size(); ++i) {
    const Origin o{file_name, lines[i].number};
    const auto f = split(lines[i].text, '|');
    if (f.size() < 4 || f.size() > 5)
      fail_input(o, "layer", lines[i].text, "expected NAME|x|w|y|t");
    LayerStats l;
    l.name = std::string(trim(f[0]));
    l.op = op_of(l.name, o);
    l.input = shape_of(parse_dims(f[1], o, "x"), o, "x", f[1]);
    l.weight_dims = dims_allow_zero(f[2], o, "w");
    l.output = shape_of(parse_dims(f[3], o, "y"), o, "y", f[3]);
    check_layer_shapes(l, net.stats.input.rank, o, f);
    if (i == 3 && l.input != net.stats.input)
      fail_input(o, "x", f[1],
                 "the first layer's input is not the Input line's " + net.stats.input.str());
    l.measured_time_s = f.size() == 5 && !trim(f[4]).empty() ? parse_double(f[4], o, "t") : 0.0;
    if (l.measured_time_s < 0) fail_input(o, "t", f[4], "must not be negative");
    if (l.measured_time_s > kMaxMeasuredSecondsPerSample)
      fail_input(o, "t", f[4], "more than 10^6 s per sample: not a measured time");
    l.params = product(l.weight_dims, o, "w", f[2]);
    if (l.op == Op::Conv) {
      const long double macs = static_cast<long double>(l.params) * l.output.spatial_elements();
      if (macs > static_cast<long double>(std::int64_t{1} << 62))
        fail_input(o, "layer", l.name, "too large: more than 2^62 MACs per sample");
      l.macs = static_cast<std::int64_t>(macs);
    }
    if (l.op == Op::Dense) l.macs = l.params;
    l.input_elements = l.input.elements();
    l.output_elements = l.output.elements();
    l.crossing_elements = l.input_elements;  // a chain: only the previous layer's output
    l.buffer_layer = static_cast<std::int64_t>(net.stats.layers.size());  // ParaDL: no alias
    l.last_reader = l.buffer_layer + 1;  // a chain (the last layer's is set below)
    l.forward_flops = paradl_forward_flops(l.op, l.input, l.output, l.weight_dims);
    l.halos = net_file_halos(l);
    l.backward_data_flops = l.forward_flops;
    l.backward_weight_flops = static_cast<double>(l.params);
    l.read_elements = l.input_elements;
    l.written_elements = l.output_elements;
    // ParaDL keeps x and y of every layer but in-place ReLU/BNORM (summary_network2).
    if (l.op != Op::Activation && l.op != Op::BatchNorm) l.saved_elements = l.input_elements;
    l.released_elements = l.saved_elements;  // kept by the layer itself
    if (l.saved_elements > 0) l.first_saver = l.buffer_layer;
    // the output's gradient and the input's, which autograd skips for the data
    l.backward_gradient_elements = l.output_elements + (i == 3 ? 0 : l.input_elements);
    l.pending_gradient_elements = l.output_elements;
    net.stats.layers.push_back(std::move(l));
  }
  if (net.stats.layers.empty()) fail_input({file_name, 0}, "file", file_name, "no layers");
  net.stats.layers.back().last_reader = net.stats.layers.back().buffer_layer;  // read by nobody
  net.stats.saves_inputs_as_own = true;
  const auto n = static_cast<std::int32_t>(net.stats.layers.size());
  for (std::int32_t i = 0; i < n; ++i) {  // a chain: layer i read by i + 1, saved by it if kept
    net.stats.reader_begin.push_back(i);
    net.stats.saver_begin.push_back(static_cast<std::int32_t>(net.stats.savers.size()));
    if (i + 1 < n) net.stats.readers.push_back(i + 1);
    if (i + 1 < n && net.stats.layers[static_cast<std::size_t>(i) + 1].saved_elements > 0)
      net.stats.savers.push_back(i + 1);
  }
  net.stats.reader_begin.push_back(n - 1);
  net.stats.saver_begin.push_back(static_cast<std::int32_t>(net.stats.savers.size()));
  return net;
}

ParaDlNet read_paradl_net(const std::string& path) {
  std::istringstream in(read_input_file(path, "ParaDL model file"));
  return parse_paradl_net(in, path);
}

std::vector<bool> parse_layer_config(std::istream& in, const std::string& file_name,
                                     const ModelStats& model) {
  const auto lines = content_lines(in);
  std::vector<bool> flags;
  for (const auto& line : lines) {
    const Origin o{file_name, line.number};
    const auto f = split(line.text, '|');
    if (f.size() != 2) fail_input(o, "line", line.text, "expected NAME|0 or NAME|1");
    std::string_view name = trim(f[0]);
    // Some files prefix the layer index: "0 CONV_1 |1".
    if (const auto space = name.find(' '); space != std::string_view::npos)
      name = trim(name.substr(space + 1));
    const std::string_view v = trim(f[1]);
    if (v != "0" && v != "1") fail_input(o, std::string(name), v, "expected 0 or 1");
    if (flags.size() >= model.layers.size()) {
      fail_input(o, "layer", name,
                 "more lines than the model's " + std::to_string(model.layers.size()) + " layers");
    }
    const std::string& expected = model.layers[flags.size()].name;
    if (name != expected)
      fail_input(o, "layer", name, "expected layer '" + expected + "' at this position");
    flags.push_back(v == "1");
  }
  if (flags.size() != model.layers.size()) {
    fail_input({file_name, 0}, "file", file_name,
               std::to_string(flags.size()) + " lines for a model of " +
                   std::to_string(model.layers.size()) + " layers");
  }
  return flags;
}

std::vector<bool> read_layer_config(const std::string& path, const ModelStats& model) {
  std::istringstream in(read_input_file(path, "layer configuration file"));
  return parse_layer_config(in, path, model);
}

}  // namespace paradise::model
