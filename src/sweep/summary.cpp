#include "paradise/sweep/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "paradise/core/error.hpp"

namespace paradise::sweep {
namespace {

// A group's candidates are reduced to its front beyond this many, or beyond twice its front
// after the last reduction (a three-objective front may hold more than this: the doubling
// keeps adding amortised O(log n)).
constexpr std::size_t kCompactAt = 256;

std::size_t axis_index(const Grid& g, std::string_view name) {
  for (std::size_t a = 0; a < g.axes().size(); ++a) {
    if (g.axes()[a].name == name) return a;
  }
  return g.axes().size();
}

template <class T>
void put(std::vector<std::uint8_t>& out, const T* data, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n * sizeof(T));
  if (n > 0) std::memcpy(out.data() + at, data, n * sizeof(T));
}

template <class T>
std::vector<T> take(std::span<const std::uint8_t>& in) {
  std::uint64_t n = 0;
  if (in.size() < sizeof n) throw std::runtime_error("sweep summary: truncated bytes");
  std::memcpy(&n, in.data(), sizeof n);
  in = in.subspan(sizeof n);
  if (in.size() / sizeof(T) < n) throw std::runtime_error("sweep summary: truncated bytes");
  std::vector<T> v(n);
  if (n > 0) std::memcpy(v.data(), in.data(), n * sizeof(T));
  in = in.subspan(n * sizeof(T));
  return v;
}

bool better(const Best& a, const Best& b) {  // a replaces b
  if (!a.found) return false;
  if (!b.found) return true;
  return a.epoch_time_s < b.epoch_time_s || (a.epoch_time_s == b.epoch_time_s && a.index < b.index);
}

}  // namespace

std::optional<Objective> objective_from_name(std::string_view name) {
  if (name == "epoch_time") return Objective::EpochTime;
  if (name == "iteration_time") return Objective::IterationTime;
  if (name == "gpus") return Objective::Gpus;
  if (name == "gpu_hours") return Objective::GpuHours;
  if (name == "memory") return Objective::MemoryPerGpu;
  if (name == "time_to_train") return Objective::TimeToTrain;
  if (name == "gpu_hours_to_train") return Objective::GpuHoursToTrain;
  return std::nullopt;
}

std::string_view objective_column(Objective o) {
  switch (o) {
    case Objective::EpochTime:
      return "epoch_time_s";
    case Objective::IterationTime:
      return "iteration_time_s";
    case Objective::Gpus:
      return "gpus";
    case Objective::GpuHours:
      return "gpu_hours";
    case Objective::MemoryPerGpu:
      return "memory_per_gpu_bytes";
    case Objective::TimeToTrain:
      return "time_to_train_s";
    case Objective::GpuHoursToTrain:
      return "gpu_hours_to_train";
  }
  return "";
}

double objective_value(Objective o, const PointResult& r, std::int64_t gpus) {
  switch (o) {
    case Objective::EpochTime:
      return r.epoch_time_s;
    case Objective::IterationTime:
      return r.iteration_time_s;
    case Objective::Gpus:
      return static_cast<double>(gpus);
    case Objective::GpuHours:  // GPU-hours per epoch
      return r.epoch_time_s * static_cast<double>(gpus) / 3600.0;
    case Objective::MemoryPerGpu:
      return r.memory_per_gpu_bytes;
    case Objective::TimeToTrain:  // epochs to target x epoch
      return r.epoch_time_s * r.epochs_to_target;
    case Objective::GpuHoursToTrain:
      return r.epoch_time_s * r.epochs_to_target * static_cast<double>(gpus) / 3600.0;
  }
  return 0;
}

AxisSubset::AxisSubset(const Grid& grid, const std::vector<std::string>& names) {
  std::vector<std::uint64_t> stride(grid.axes().size(), 1);
  for (std::size_t a = grid.axes().size(); a-- > 1;)
    stride[a - 1] = stride[a] * grid.axes()[a].size();
  for (const auto& n : names) {
    const std::size_t a = axis_index(grid, n);
    if (a == grid.axes().size()) throw InputError("no axis '" + n + "' in the sweep grid");
    if (std::find(axes_.begin(), axes_.end(), a) != axes_.end())
      throw InputError("axis '" + n + "' named twice");
    axes_.push_back(a);
  }
  std::sort(axes_.begin(), axes_.end());  // grid order, so groups come out in grid order
  for (std::size_t a : axes_) {
    grid_stride_.push_back(stride[a]);
    size_of_.push_back(grid.axes()[a].size());
    size_ *= grid.axes()[a].size();
  }
}

std::uint64_t AxisSubset::of(std::uint64_t index) const {
  std::uint64_t k = 0;
  for (std::size_t j = 0; j < axes_.size(); ++j)
    k = k * size_of_[j] + (index / grid_stride_[j]) % size_of_[j];
  return k;
}

namespace {
std::vector<std::string> present(const Grid& g, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    // the default group's optional axes, skipped when not swept
    const bool optional = optional_axis(n);
    if (!optional || axis_index(g, n) < g.axes().size()) out.push_back(n);
  }
  return out;
}
}  // namespace

Summary::Summary(const Grid& grid, const ParetoSpec& pareto)
    : grid_(&grid),
      pareto_(pareto),
      group_(grid, present(grid, pareto.group)),
      gpus_axis_(axis_index(grid, "gpus")),
      best_(grid.axes()[0].size()),
      groups_(group_.size()),
      compact_at_(group_.size(), kCompactAt) {
  pareto_.group = present(grid, pareto.group);
  const auto& o = pareto.objectives;
  if (o.size() < 2 || o.size() > 3 || o[0] == o[1] ||
      (o.size() == 3 && (o[2] == o[0] || o[2] == o[1])))
    throw std::invalid_argument("sweep::Summary: two or three distinct Pareto objectives");
  for (std::size_t a = gpus_axis_ + 1; a < grid.axes().size(); ++a)
    gpus_stride_ *= grid.axes()[a].size();
  per_model_ = grid.points() / grid.axes()[0].size();
}

void Summary::add(std::uint64_t index, const PointResult& r) {
  ++counts_[r.status];
  if (r.status != 0) return;
  const Best b{r.epoch_time_s, index, 1};
  Best& m = best_[index / per_model_];
  if (better(b, m)) m = b;
  const auto& gpus = grid_->axes()[gpus_axis_].values;
  const std::int64_t g = gpus[(index / gpus_stride_) % gpus.size()];
  const auto& o = pareto_.objectives;
  const Candidate c{objective_value(o[0], r, g), objective_value(o[1], r, g),
                    o.size() > 2 ? objective_value(o[2], r, g) : 0.0, index};
  if (std::isnan(c.first) || std::isnan(c.second) || std::isnan(c.third))
    throw std::logic_error("sweep::Summary: a feasible point with a NaN objective, index " +
                           std::to_string(index));
  add_candidate(c);
}

void Summary::add_candidate(const Candidate& c) {
  const std::uint64_t k = group_.of(c.index);
  auto& f = groups_[k];
  f.push_back(c);
  if (f.size() > compact_at_[k]) {
    f = pareto_front(std::move(f));
    compact_at_[k] = std::max<std::uint64_t>(kCompactAt, 2 * f.size());
  }
}

void Summary::compact() {
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    groups_[k] = pareto_front(std::move(groups_[k]));
    compact_at_[k] = std::max<std::uint64_t>(kCompactAt, 2 * groups_[k].size());
  }
}

std::vector<std::uint8_t> Summary::to_bytes() {
  compact();
  std::vector<std::uint8_t> out;
  const std::uint64_t nc = counts_.size(), nb = best_.size();
  put(out, &nc, 1);
  put(out, counts_.data(), counts_.size());
  put(out, &nb, 1);
  put(out, best_.data(), best_.size());
  std::uint64_t n = 0;
  for (const auto& f : groups_) n += f.size();
  put(out, &n, 1);
  for (const auto& f : groups_) put(out, f.data(), f.size());
  return out;
}

void Summary::merge(std::span<const std::uint8_t> bytes) {
  const auto counts = take<std::uint64_t>(bytes);
  const auto best = take<Best>(bytes);
  const auto candidates = take<Candidate>(bytes);
  if (counts.size() != counts_.size() || best.size() != best_.size() || !bytes.empty())
    throw std::runtime_error("sweep summary: bytes of a different sweep");
  for (std::size_t i = 0; i < counts.size(); ++i) counts_[i] += counts[i];
  for (std::size_t m = 0; m < best.size(); ++m) {
    if (better(best[m], best_[m])) best_[m] = best[m];
  }
  for (const auto& c : candidates) add_candidate(c);
}

std::vector<Candidate> Summary::fronts() {
  compact();
  std::vector<Candidate> out;
  for (const auto& f : groups_) out.insert(out.end(), f.begin(), f.end());
  return out;
}

}  // namespace paradise::sweep
