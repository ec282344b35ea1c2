// Maps reduced over named axes, for `storage = summary`: a cell is a point of the kept
// axes and stands for every combination of the reduced ones (e.g. the best status over
// batch sizes), so a huge grid needs only as many stored cells as the kept axes span.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/grid.hpp"

namespace paradise::sweep {

/// What a cell stores: the best status (ok < out of memory < invalid), the least memory
/// per GPU of its valid points and the shortest epoch of its feasible points (NaN if none).
struct CellResult {
  std::uint8_t best_status = 2;
  double min_memory_per_gpu_bytes = std::numeric_limits<double>::quiet_NaN();
  double min_epoch_time_s = std::numeric_limits<double>::quiet_NaN();
  void add(const PointResult& r);
};

class Reduction {
 public:
  /// Throws InputError for an unknown or repeated axis name; an optional_axis() absent from
  /// the grid (one value) is skipped.
  Reduction(const Grid& grid, const std::vector<std::string>& reduced);
  std::uint64_t cells() const { return cells_; }
  std::uint64_t points_per_cell() const { return per_cell_; }
  /// The kept axes, in grid order: the dimensions of the reduced maps.
  const std::vector<std::string>& kept() const { return kept_names_; }
  /// Their sizes: the shape of the reduced maps.
  const std::vector<std::uint64_t>& kept_sizes() const { return kept_size_; }
  /// Calls f(grid index) for every point of `cell`, in increasing index order.
  template <class F>
  void for_each_point(std::uint64_t cell, F&& f) const;

 private:
  std::uint64_t base(std::uint64_t cell) const;
  std::vector<std::uint64_t> kept_size_, kept_stride_, red_size_, red_stride_;
  std::vector<std::string> kept_names_;
  std::uint64_t cells_ = 1, per_cell_ = 1;
};

template <class F>
void Reduction::for_each_point(std::uint64_t cell, F&& f) const {
  const std::uint64_t b = base(cell);
  const std::size_t k = red_size_.size();
  std::vector<std::uint64_t> digit(k, 0);  // odometer over the reduced axes, last fastest
  std::uint64_t offset = 0;
  for (std::uint64_t r = 0; r < per_cell_; ++r) {
    f(b + offset);
    for (std::size_t j = k; j-- > 0;) {
      offset += red_stride_[j];
      if (++digit[j] < red_size_[j]) break;
      offset -= red_stride_[j] * red_size_[j];
      digit[j] = 0;
    }
  }
}

}  // namespace paradise::sweep
