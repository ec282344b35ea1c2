// Layer-times files (CSV: layer, forward_s, backward_s per sample, batch; optional
// precision, peak_memory_bytes; analysis/profile_layers.py writes them).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace paradise::input {

/// One layer's measured times per sample, from a layer-times CSV.
struct LayerTime {
  std::string layer;
  double forward_s = 0, backward_s = 0;  ///< seconds per sample
  std::int64_t batch = 0;                ///< the batch it was measured at
  std::string precision;
  double peak_memory_bytes = 0;
  int line = 0;  ///< in the file
};
/// Reads a layer-times CSV (columns in any order, '#' comments); errors name file:line.
std::vector<LayerTime> read_layer_times(const std::string& path);
/// The same from a stream (`file` names it in errors).
std::vector<LayerTime> parse_layer_times(std::istream& in, const std::string& file);

/// The precision column's names: fp32, tf32, mixed, fp16 and bf16 (the last two are mixed:
/// strategy::precision_from_name reads each of them).
bool is_precision_name(std::string_view name);

}  // namespace paradise::input
