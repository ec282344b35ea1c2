// Tensor shapes per sample: channels x [depth x] height x width.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "paradise/core/error.hpp"

namespace paradise::model {

/// The shape of one sample's tensor (the batch dimension is never stored).
struct Shape {
  std::int64_t channels = 0;
  int rank = 0;                               ///< spatial dimensions: 0 (flat) to 3
  std::array<std::int64_t, 3> size{1, 1, 1};  ///< spatial extents, first `rank` used

  static Shape flat(std::int64_t channels) { return Shape{channels, 0, {1, 1, 1}}; }
  static Shape image(std::int64_t c, std::int64_t h, std::int64_t w) { return {c, 2, {h, w, 1}}; }
  static Shape volume(std::int64_t c, std::int64_t d, std::int64_t h, std::int64_t w) {
    return {c, 3, {d, h, w}};
  }

  /// Bounds on a per-sample tensor, far beyond any CNN's (a 1024^3 volume holds 2^30 per
  /// channel) and low enough that sizes, element counts and their products with a batch
  /// never overflow 64-bit integers or lose integers in doubles.
  static constexpr std::int64_t kMaxExtent = (std::int64_t{1} << 31) - 1;
  static constexpr std::int64_t kMaxElements = std::int64_t{1} << 48;
  /// Every extent in [1, kMaxExtent] and the element count <= kMaxElements (computed
  /// without overflow).
  bool within_limits() const;

  std::int64_t spatial_elements() const;
  std::int64_t elements() const { return channels * spatial_elements(); }
  /// "3x224x224" (C x H x W) or "4x128x128x128" (C x D x H x W); "1000" when flat.
  std::string str() const;
  bool operator==(const Shape&) const = default;

  /// Parses "C", "CxW", "CxHxW" or "CxDxHxW"; errors name `where` and `key`.
  static Shape parse(std::string_view text, const Origin& where, std::string_view key);
};

}  // namespace paradise::model
