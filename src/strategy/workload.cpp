#include "paradise/strategy/workload.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <map>
#include <sstream>
#include <utility>

#include "memory/recompute.hpp"
#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/kernels.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::strategy {

// docs/cost-model.md §paradl-compute: comp_l = totalComp * flop_l / sum(flop), flop_l = 2 FW + |w|
// (for .net models, forward + backward FLOPs are stored exactly that way).
std::vector<double> spread_by_flops(const model::ModelStats& m, double time_per_sample_s) {
  std::vector<double> flops;
  flops.reserve(m.layers.size());
  double total = 0;
  for (const auto& l : m.layers) {
    flops.push_back(l.forward_flops + l.backward_data_flops + l.backward_weight_flops);
    total += flops.back();
  }
  std::vector<double> t;
  t.reserve(flops.size());
  // no FLOPs anywhere (a .net file of dropout layers): nothing to weigh the layers by, so
  // evenly, not 0 s for a measured time (make_workload's time_source says so)
  const double n = static_cast<double>(std::max<std::size_t>(1, flops.size()));
  for (double f : flops)
    t.push_back(total > 0 ? time_per_sample_s * f / total : time_per_sample_s / n);
  return t;
}

bool counts_for_memory(const model::LayerStats& l) {
  return l.op != model::Op::Activation && l.op != model::Op::BatchNorm && l.op != model::Op::Input;
}

double released_fixed_bytes(const model::LayerStats& l) {
  const bool labels = l.op == model::Op::SoftmaxCrossEntropy || l.op == model::Op::MSELoss;
  return labels ? 0.0 : static_cast<double>(l.saved_fixed_bytes);
}

// Heap bytes of the containers and strings (capacities; a string of up to 15 characters is
// held inline by libstdc++).
std::size_t footprint_bytes(const Workload& w) {
  std::size_t n = sizeof(Workload) + heap_bytes(w.model.name) + heap_bytes(w.time_source) +
                  system::footprint_bytes(w.system) + w.layer_time_s.capacity() * sizeof(double) +
                  w.active.capacity() / 8 + w.spatial_prefixes.capacity() * sizeof(SpatialPrefix);
  n += w.model.layers.capacity() * sizeof(model::LayerStats) +
       (w.model.reader_begin.capacity() + w.model.readers.capacity() +
        w.model.saver_begin.capacity() + w.model.savers.capacity()) *
           sizeof(std::int32_t);
  for (const auto& l : w.model.layers)
    n += heap_bytes(l.name) + l.weight_dims.capacity() * sizeof(std::int64_t);
  return n;
}

double gradient_peak_bytes(const model::ModelStats& m, std::size_t begin, std::size_t end,
                           double e) {
  double peak = 0, released = 0;
  for (std::size_t k = end; k-- > begin;) {
    const auto& l = m.layers[k];
    peak = std::max(peak, e * static_cast<double>(l.backward_gradient_elements) - released);
    released += e * static_cast<double>(l.released_elements) + released_fixed_bytes(l);
  }
  return peak;
}

LayerSums sum_layers(const Workload& wl) {
  LayerSums s;
  double forward = 0, backward = 0;
  for (std::size_t i = 0; i < wl.model.layers.size(); ++i) {
    const auto& l = wl.model.layers[i];
    const bool a = wl.active[i];
    s.saved += static_cast<double>(l.saved_elements);
    s.saved_fixed_bytes += static_cast<double>(l.saved_fixed_bytes);
    s.largest_pair =
        std::max(s.largest_pair, static_cast<double>(l.input_elements + l.output_elements));
    if (counts_for_memory(l)) {
      s.outputs += static_cast<double>(l.output_elements);
    } else if (l.op != model::Op::Input) {
      s.largest_in_place = std::max(s.largest_in_place, static_cast<double>(l.output_elements));
    }
    forward += l.forward_flops;
    backward += l.backward_data_flops + l.backward_weight_flops;
    const auto w = static_cast<double>(l.params);
    s.w += w;
    s.t += wl.layer_time_s[i];
    if (a) {
      s.w_active += w;
      s.t_active += wl.layer_time_s[i];
    }
    if (counts_for_memory(l)) {
      s.x += static_cast<double>(l.input_elements);
      s.y += static_cast<double>(l.output_elements);
      if (a) {
        s.x_active += static_cast<double>(l.input_elements);
        s.y_active += static_cast<double>(l.output_elements);
      }
    }
  }
  if (forward + backward > 0) s.backward_share = backward / (forward + backward);
  for (const double e : {2.0, 4.0})
    s.gradient_peak_bytes[element_size_index(e)] =
        gradient_peak_bytes(wl.model, 0, wl.model.layers.size(), e);
  // gradient readiness, last layer first: each layer's backward time its time per sample x
  // its backward share of FLOPs (the model's share where it has none: ParaDL's times)
  const auto layer_backward_s = [&](const model::LayerStats& l, std::size_t i) {
    const double b = l.backward_data_flops + l.backward_weight_flops, all = l.forward_flops + b;
    return wl.layer_time_s[i] * (all > 0 ? b / all : s.backward_share);
  };
  double backward_s = 0;
  for (std::size_t i = 0; i < wl.model.layers.size(); ++i)
    backward_s += layer_backward_s(wl.model.layers[i], i);
  double done = 0;
  for (std::size_t i = wl.model.layers.size(); i-- > 0;) {
    const auto& l = wl.model.layers[i];
    done += layer_backward_s(l, i);
    if (l.params > 0 && s.w > 0)
      s.gradient_ready.push_back(
          {backward_s > 0 ? done / backward_s : 1.0, static_cast<double>(l.params) / s.w});
  }
  const std::array<detail::Recomputed, 2> plans = detail::recomputed(wl.model);
  for (const std::size_t at : {std::size_t{0}, std::size_t{1}}) {
    s.recompute_saved[at] = plans[at].saved;
    s.recompute_saved_fixed_bytes[at] = plans[at].saved_fixed_bytes;
    s.recompute_forward_share[at] = plans[at].forward_share;
    s.recompute_gradient_peak_bytes[at] = plans[at].gradient_peak_bytes;
    s.recompute_lowers_peak[at] = plans[at].lowers_peak;
  }
  return s;
}

std::vector<bool> default_active_layers(const model::ModelStats& m) {
  std::vector<bool> a;
  for (const auto& l : m.layers) a.push_back(l.op == model::Op::Conv);
  return a;
}

std::array<std::int64_t, 3> parallel_min_extent(const Workload& w, int split, bool every_layer) {
  std::array<std::int64_t, 3> min_extent{0, 0, 0};
  const int rank = w.model.input.rank;
  for (int i = 0; i <= split; ++i) {
    if (!every_layer && !w.active[static_cast<std::size_t>(i)]) continue;
    const auto& l = w.model.layers[static_cast<std::size_t>(i)];
    for (int dim = 0; dim < std::min(rank, l.output.rank); ++dim) {
      const auto u = static_cast<std::size_t>(dim);
      const std::int64_t e = std::min(l.input.size[u], l.output.size[u]);
      min_extent[u] = min_extent[u] == 0 ? e : std::min(min_extent[u], e);
    }
  }
  return min_extent;
}

std::vector<SpatialPrefix> spatial_prefixes(const Workload& w) {
  // the running smallest extents, recorded at each parallel layer
  std::vector<SpatialPrefix> running;
  for (std::size_t i = 0; i < w.active.size(); ++i) {
    if (w.active[i])
      running.push_back({static_cast<int>(i), parallel_min_extent(w, static_cast<int>(i))});
  }
  // from the longest prefix down: a new one wherever cutting the next layer off widens it
  std::vector<SpatialPrefix> out;
  for (std::size_t k = running.size(); k-- > 1;) {
    if (running[k - 1].min_extent != running[k].min_extent) out.push_back(running[k - 1]);
  }
  return out;
}

std::string precision_mismatch(const Workload& w, Precision p) {
  if (w.measured_precision.empty()) return "";
  const auto measured = precision_from_name(w.measured_precision);
  if (measured && *measured == p) return "";
  return "the layer times were measured in " + w.measured_precision + ", not " +
         std::string(precision_name(p));
}

Precision default_precision(const Workload& w) {
  if (const auto measured = precision_from_name(w.measured_precision)) return *measured;
  return w.system.gpu.peak_tf32_flops > 0 ? Precision::Tf32 : Precision::Fp32;
}

Workload build_workload(input::LoadedWorkload loaded) {
  Workload w;
  w.system = std::move(loaded.system);
  w.model = std::move(loaded.model);
  w.dataset_samples = loaded.dataset_samples;
  w.sample_format = loaded.sample_format;
  w.sample_stored_bytes = loaded.sample_stored_bytes;
  for (const auto& l : w.model.layers) {
    w.parameter_tensors += parameter_tensors(l);
    w.parameter_elements += static_cast<double>(l.params);
  }
  w.measured_precision = std::move(loaded.measured_precision);
  w.time_source = std::move(loaded.time_source);
  w.measured_time = true;
  if (!loaded.measured_layer_time_s.empty()) {
    w.layer_time_s = std::move(loaded.measured_layer_time_s);
  } else {
    double t = loaded.time_per_sample_s;
    if (t <= 0) {
      w.measured_time = false;
      t = (w.model.forward_flops() + w.model.backward_flops()) / w.system.gpu.peak_fp32_flops;
      w.time_source = "FLOPs at the GPU's fp32 peak (no measured time given: optimistic)";
    }
    w.measured_whole_step = w.measured_time;
    w.layer_time_s = spread_by_flops(w.model, t);
    if (w.measured_time && w.model.forward_flops() + w.model.backward_flops() <= 0)
      w.time_source += " (no layer has FLOPs: evenly over the layers)";
  }
  // the .lc file's layers, or every convolution and the spatial strategies' shorter splits
  if (!loaded.active.empty()) {
    w.active = std::move(loaded.active);
  } else {
    w.active = default_active_layers(w.model);
    w.spatial_prefixes = spatial_prefixes(w);
  }
  return w;
}

Workload make_workload(const WorkloadSpec& spec) {
  return build_workload(input::load_workload(spec));
}

std::string host_link_missing(const Config& c, const system::System& s) {
  if (c.variant != Variant::Paradise || s.host.bandwidth_Bps > 0) return {};
  bool staged = c.implementation.managed_memory != 0 || c.implementation.input_broadcast;
  for (const auto& r : c.implementation.exchanges)
    staged = staged || r.transport != implementation::Transport::GpuDirect;
  if (!staged) return {};
  return "implementation '" + std::string(c.implementation_name) +
         "' stages data through the host, but system '" + s.name +
         "' gives no host link: add a [host] section (pcie_GBps, gpus_per_switch)";
}

}  // namespace paradise::strategy
