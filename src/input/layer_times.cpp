#include "paradise/input/layer_times.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/stats.hpp"

namespace paradise::input {

bool is_precision_name(std::string_view name) {
  constexpr std::array<std::string_view, 5> kNames = {"fp32", "tf32", "mixed", "fp16", "bf16"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

namespace {

// The rows of a layer-times table; errors name `path` and the line.
std::vector<LayerTime> layer_times_from(const CsvTable& t, const std::string& path) {
  for (const char* name : {"layer", "forward_s", "backward_s", "batch"}) {
    if (!t.column(name))
      fail_input({path, t.header_line}, "column", name,
                 "required column missing (layer, forward_s, backward_s, batch; optional "
                 "precision, peak_memory_bytes)");
  }
  std::vector<LayerTime> out;
  for (const auto& row : t.rows) {
    const Origin o{path, row.line};
    const auto cell = [&](const char* name) {
      const auto c = t.column(name);
      return c ? row.cells[*c] : std::string();
    };
    const auto seconds = [&](const char* name) {
      const double v = parse_double(cell(name), o, std::string("column ") + name);
      if (v < 0) fail_input(o, std::string("column ") + name, cell(name), "must be >= 0");
      return v;
    };
    const auto per_sample = [&](const char* name) {
      const double v = seconds(name);
      if (v > model::kMaxMeasuredSecondsPerSample)
        fail_input(o, std::string("column ") + name, cell(name),
                   "more than 10^6 s per sample: not a measured time (seconds per sample)");
      return v;
    };
    LayerTime l;
    l.line = row.line;
    l.layer = cell("layer");
    if (l.layer.empty()) fail_input(o, "column layer", "", "empty layer name");
    l.forward_s = per_sample("forward_s");
    l.backward_s = per_sample("backward_s");
    l.batch = parse_int(cell("batch"), o, "column batch");
    if (l.batch < 1) fail_input(o, "column batch", cell("batch"), "must be >= 1");
    // empty (unknown: used at any precision) or a name predict knows, in lower case
    l.precision = cell("precision");
    std::transform(l.precision.begin(), l.precision.end(), l.precision.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (!l.precision.empty() && !is_precision_name(l.precision))
      fail_input(o, "column precision", cell("precision"),
                 "expected fp32, tf32, mixed, fp16 or bf16 (or empty: not known)");
    if (!cell("peak_memory_bytes").empty()) l.peak_memory_bytes = seconds("peak_memory_bytes");
    out.push_back(std::move(l));
  }
  if (out.empty()) fail_input({path, t.header_line}, "", "", "no layer rows after the header");
  for (const auto& l : out) {
    if (l.precision != out.front().precision)
      fail_input({path, l.line}, "column precision", l.precision,
                 "one precision per file (line " + std::to_string(out.front().line) + " has '" +
                     out.front().precision + "')");
  }
  return out;
}

}  // namespace

std::vector<LayerTime> read_layer_times(const std::string& path) {
  return layer_times_from(read_csv_file(path), path);
}

std::vector<LayerTime> parse_layer_times(std::istream& in, const std::string& file) {
  return layer_times_from(read_csv(in, file), file);
}

}  // namespace paradise::input
