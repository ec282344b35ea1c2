// The sweep grid: named axes and a 64-bit mixed-radix index over their product.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise::sweep {

/// One axis: categorical (labels), integer (values) or real (reals); its length is the
/// number of entries.
struct Axis {
  std::string name;
  std::vector<std::string> labels;   ///< categorical axes (model, dataset, strategy, ...)
  std::vector<std::int64_t> values;  ///< integer axes (gpus, batch, ...)
  std::vector<double> reals{};       ///< real axes (network_latency_us)
  bool categorical() const { return !labels.empty(); }
  bool real() const { return !reals.empty(); }
  std::uint64_t size() const {
    return categorical() ? labels.size() : real() ? reals.size() : values.size();
  }
  /// Entry i as text: the label, the integer, or the real's shortest exact decimal ("0.5").
  std::string text(std::uint64_t i) const;
};

/// Row-major mixed-radix index: the last axis varies fastest.
class Grid {
 public:
  /// Throws InputError when an axis is empty or the product overflows 64 bits.
  explicit Grid(std::vector<Axis> axes);
  const std::vector<Axis>& axes() const { return axes_; }
  std::uint64_t points() const { return points_; }
  /// Coordinates of a flat index, one per axis.
  void decode(std::uint64_t index, std::vector<std::uint64_t>& coords) const;
  std::uint64_t encode(const std::vector<std::uint64_t>& coords) const;

 private:
  std::vector<Axis> axes_;
  std::uint64_t points_ = 1;
};

/// The axes a grid may lack although every point has a value of them: resolution (the
/// dataset's own) and the training settings (given one value, or the default). A Pareto
/// group or a reduction naming one that is absent has nothing to split or reduce.
inline bool optional_axis(std::string_view name) {
  return name == "resolution" || name == "precision" || name == "optimizer" ||
         name == "zero_stage" || name == "recompute" || name == "implementation" ||
         name == "spatial_split" || name == "p2" || name == "segments";
}

/// "1, 2, 4", "16..1024 *2" (geometric) or "64..512 +64" (arithmetic), or a mix joined by
/// commas; errors name `where` and `key`.
std::vector<std::int64_t> parse_int_values(std::string_view text, const Origin& where,
                                           std::string_view key);
/// Like parse_int_values, and decimal numbers as list entries ("0.5, 1..16 *2"); every value
/// finite and > 0.
std::vector<double> parse_positive_real_values(std::string_view text, const Origin& where,
                                               std::string_view key);
/// "resnet50, vgg16": comma-separated names, trimmed, none empty.
std::vector<std::string> parse_names(std::string_view text, const Origin& where,
                                     std::string_view key);

/// The contiguous share [begin, end) of `points` that rank `rank` of `ranks` evaluates:
/// sizes differ by at most one.
struct Range {
  std::uint64_t begin = 0, end = 0;
};
Range block_of(std::uint64_t points, int rank, int ranks);

}  // namespace paradise::sweep
