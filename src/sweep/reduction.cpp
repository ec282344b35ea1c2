#include "paradise/sweep/reduction.hpp"

#include <algorithm>
#include <cmath>

#include "paradise/core/error.hpp"

namespace paradise::sweep {

void CellResult::add(const PointResult& r) {
  best_status = std::min(best_status, r.status);
  if (r.status == 2) return;  // invalid: no memory figure
  const auto lower = [](double& x, double v) {
    if (std::isnan(x) || v < x) x = v;
  };
  lower(min_memory_per_gpu_bytes, r.memory_per_gpu_bytes);
  if (r.status == 0) lower(min_epoch_time_s, r.epoch_time_s);
}

Reduction::Reduction(const Grid& grid, const std::vector<std::string>& reduced) {
  const auto& axes = grid.axes();
  std::vector<std::uint64_t> stride(axes.size(), 1);
  for (std::size_t a = axes.size(); a-- > 1;) stride[a - 1] = stride[a] * axes[a].size();
  std::vector<bool> drop(axes.size(), false);
  for (const auto& name : reduced) {
    const auto it =
        std::find_if(axes.begin(), axes.end(), [&](const Axis& a) { return a.name == name; });
    if (it == axes.end()) {
      if (optional_axis(name)) continue;  // one value: nothing to reduce
      throw InputError("no axis '" + name + "' in the sweep grid");
    }
    const auto a = static_cast<std::size_t>(it - axes.begin());
    if (drop[a]) throw InputError("axis '" + name + "' named twice");
    drop[a] = true;
  }
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (drop[a]) {
      red_size_.push_back(axes[a].size());
      red_stride_.push_back(stride[a]);
      per_cell_ *= axes[a].size();
    } else {
      kept_size_.push_back(axes[a].size());
      kept_stride_.push_back(stride[a]);
      kept_names_.push_back(axes[a].name);
      cells_ *= axes[a].size();
    }
  }
}

std::uint64_t Reduction::base(std::uint64_t cell) const {
  std::uint64_t b = 0;
  for (std::size_t j = kept_size_.size(); j-- > 0;) {
    b += (cell % kept_size_[j]) * kept_stride_[j];
    cell /= kept_size_[j];
  }
  return b;
}

}  // namespace paradise::sweep
