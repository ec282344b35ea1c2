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
#include "paradise/system/catalog.hpp"

namespace paradise::strategy {

// cost-model-notes §1.5 step 2: comp_l = totalComp * flop_l / sum(flop), flop_l = 2 FW + |w|
// (for .net models, forward + backward FLOPs are stored exactly that way).
std::vector<double> spread_by_flops(const model::ModelStats& m, double time_per_sample_s) {
  std::vector<double> flops;
  double total = 0;
  for (const auto& l : m.layers) {
    flops.push_back(l.forward_flops + l.backward_data_flops + l.backward_weight_flops);
    total += flops.back();
  }
  std::vector<double> t;
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
  return l.op == model::Op::SoftmaxCrossEntropy ? 0.0 : static_cast<double>(l.saved_fixed_bytes);
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

std::vector<LayerTime> read_layer_times(const std::string& path) {
  const CsvTable t = read_csv_file(path);
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
    if (!l.precision.empty() && !precision_from_name(l.precision))
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

namespace {

/// Each layer's forward + backward seconds per sample at the file's largest batch; a row for
/// a layer the model does not have is an error naming it.
std::vector<double> measured_layer_times(const model::ModelStats& m, const system::Gpu& gpu,
                                         const std::string& path, std::string& source,
                                         std::string& precision) {
  const auto rows = read_layer_times(path);
  precision = rows.empty() ? "" : rows.front().precision;  // one per file (read_layer_times)
  std::int64_t batch = 0;
  for (const auto& l : rows) batch = std::max(batch, l.batch);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < m.layers.size(); ++i) index.emplace(m.layers[i].name, i);
  std::vector<double> t(m.layers.size(), 0.0);
  std::vector<bool> seen(m.layers.size(), false);
  std::size_t matched = 0;
  const double fastest = std::max({gpu.peak_fp32_flops, gpu.peak_tf32_flops, gpu.peak_fp16_flops});
  const auto format_number = [](double v) {
    std::ostringstream o;
    o << std::setprecision(4) << v;
    return o.str();
  };
  for (const auto& l : rows) {
    const auto it = index.find(l.layer);
    if (it == index.end())
      fail_input({path, l.line}, "layer", l.layer,
                 "model '" + m.name + "' has no layer of this name (see paradise models --show)");
    if (l.batch != batch) continue;
    if (seen[it->second])
      fail_input({path, l.line}, "layer", l.layer, "repeated at batch " + std::to_string(batch));
    seen[it->second] = true;
    ++matched;
    t[it->second] = l.forward_s + l.backward_s;  // measured FW + BW per sample (§1.5 step 1)
    // a time far below what the GPU's fastest peak allows is a unit slip, not a measurement
    const auto& layer = m.layers[it->second];
    const double flops =
        layer.forward_flops + layer.backward_data_flops + layer.backward_weight_flops;
    if (t[it->second] > 0 && flops / t[it->second] > 100 * fastest)
      fail_input({path, l.line}, "layer", l.layer,
                 "forward_s + backward_s = " + format_number(t[it->second]) + " s per sample for " +
                     format_number(flops) + " FLOPs is more than 100x the GPU's peak (" +
                     format_number(fastest / 1e12) + " TFLOP/s): not a measured time");
  }
  // a convolution or linear layer without a time would run for free: refuse, naming it
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    if (!seen[i] && m.layers[i].macs > 0)
      fail_input({path, 0}, "layer", m.layers[i].name,
                 "model '" + m.name +
                     "' has this layer (with a GEMM) but the file has no row for "
                     "it at batch " +
                     std::to_string(batch));
  }
  // every GEMM at 0 s would make the whole step free (calibrate refuses the same file)
  bool timed = false;
  for (std::size_t i = 0; i < m.layers.size(); ++i)
    timed = timed || (m.layers[i].macs > 0 && t[i] > 0);
  if (!timed)
    fail_input({path, 0}, "", "",
               "no layer with a GEMM (convolution or linear) has a measured time > 0 at batch " +
                   std::to_string(batch) + ": not a measurement of model '" + m.name + "'");
  source = "measured per-layer times from " + path + " (batch " + std::to_string(batch) +
           (rows.front().precision.empty() ? "" : ", " + rows.front().precision) + "; " +
           std::to_string(matched) + " of " + std::to_string(m.layers.size()) +
           " layers, the others at 0)";
  return t;
}

// The .lc file's layers, or every convolution and the spatial strategies' shorter splits.
void set_active_layers(Workload& w, const WorkloadSpec& spec) {
  if (!spec.layer_config.empty()) {
    w.active = model::read_layer_config(spec.layer_config, w.model);
    return;
  }
  w.active = default_active_layers(w.model);
  w.spatial_prefixes = spatial_prefixes(w);
}

}  // namespace

std::string precision_mismatch(const Workload& w, Precision p) {
  if (w.measured_precision.empty()) return "";
  const auto measured = precision_from_name(w.measured_precision);
  if (measured && *measured == p) return "";
  return "the layer times were measured in " + w.measured_precision + ", not " +
         std::string(precision_name(p));
}

std::string own_input_dataset(const std::string& model) {
  const auto src = model::ModelSource::load(model);
  return src.paradl() ? "" : "profile:1:" + src.default_input().str();
}

Workload make_workload(const WorkloadSpec& spec) {
  Workload w;
  w.system = system::find_system(spec.system);
  const auto src = model::ModelSource::load(spec.model);
  if (spec.dataset.empty()) {
    if (!src.paradl()) throw InputError("--dataset is required for model '" + spec.model + "'");
    w.model = src.stats();
    w.dataset_samples = src.paradl()->samples;
  } else {
    const model::Dataset d = model::find_dataset(spec.dataset);
    w.model = src.reshapeable() ? src.stats(d.sample) : src.stats();
    // a .net file's shapes are fixed: another sample shape would be silently ignored
    if (!src.reshapeable() && !(d.sample == w.model.input))
      throw InputError("model '" + spec.model + "' is a ParaDL .net file whose input is " +
                       w.model.input.str() + ": dataset '" + spec.dataset + "' has samples " +
                       d.sample.str() +
                       " (give a dataset of that shape, NAME:SAMPLES:" + w.model.input.str() + ")");
    w.dataset_samples = d.samples;
  }
  double t = spec.time_per_sample_s;
  if (!(t >= 0) || !(t <= model::kMaxMeasuredSecondsPerSample))  // NaN fails both
    throw InputError("time per sample '" + (std::ostringstream() << t).str() +
                     "': must be a number of seconds > 0 and at most 10^6 (0: none given)");
  if (!spec.layer_times.empty()) {
    if (t > 0)
      throw InputError("layer times '" + spec.layer_times + "' and a time per sample (" +
                       std::to_string(t) + " s): give one of them");
    w.measured_time = true;
    w.layer_time_s = measured_layer_times(w.model, w.system.gpu, spec.layer_times, w.time_source,
                                          w.measured_precision);
    set_active_layers(w, spec);
    return w;
  }
  w.measured_time = true;
  if (t > 0) {
    w.time_source = "measured " + std::to_string(t) + " s per sample (given), spread by FLOPs";
  } else if (src.paradl() && src.paradl()->measured_time_per_sample_s() > 0) {
    t = src.paradl()->measured_time_per_sample_s();
    w.time_source =
        "ParaDL file's measured " + std::to_string(t) + " s per sample, spread by FLOPs";
  } else {
    w.measured_time = false;
    t = (w.model.forward_flops() + w.model.backward_flops()) / w.system.gpu.peak_fp32_flops;
    w.time_source = "FLOPs at the GPU's fp32 peak (no measured time given: optimistic)";
  }

  w.layer_time_s = spread_by_flops(w.model, t);
  if (w.measured_time && w.model.forward_flops() + w.model.backward_flops() <= 0)
    w.time_source += " (no layer has FLOPs: evenly over the layers)";
  set_active_layers(w, spec);
  return w;
}

}  // namespace paradise::strategy
