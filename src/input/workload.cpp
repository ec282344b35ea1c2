#include "paradise/input/workload.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/input/layer_times.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/model/paradl_files.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::input {
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
    t[it->second] = l.forward_s + l.backward_s;  // measured (docs/cost-model.md §paradl-compute)
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

// The model at the dataset's sample shape, and the dataset's size (a .net file's own without
// a dataset).
void load_model_and_dataset(LoadedWorkload& w, const WorkloadSpec& spec) {
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
    w.sample_format = d.format;
    w.sample_stored_bytes = d.stored_bytes();
  }
  // a measured time per sample: the one given, else a .net file's
  if (spec.time_per_sample_s > 0 || !spec.layer_times.empty()) return;
  if (src.paradl() && src.paradl()->measured_time_per_sample_s() > 0) {
    w.time_per_sample_s = src.paradl()->measured_time_per_sample_s();
    w.time_source = "ParaDL file's measured " + std::to_string(w.time_per_sample_s) +
                    " s per sample, spread by FLOPs";
  }
}

}  // namespace

LoadedWorkload load_workload(const WorkloadSpec& spec) {
  LoadedWorkload w;
  w.system = system::find_system(spec.system);
  load_model_and_dataset(w, spec);
  const double t = spec.time_per_sample_s;
  if (!(t >= 0) || !(t <= model::kMaxMeasuredSecondsPerSample))  // NaN fails both
    throw InputError("time per sample '" + (std::ostringstream() << t).str() +
                     "': must be a number of seconds > 0 and at most 10^6 (0: none given)");
  if (!spec.layer_times.empty()) {
    if (t > 0)
      throw InputError("layer times '" + spec.layer_times + "' and a time per sample (" +
                       std::to_string(t) + " s): give one of them");
    w.measured_layer_time_s = measured_layer_times(w.model, w.system.gpu, spec.layer_times,
                                                   w.time_source, w.measured_precision);
  } else if (t > 0) {
    w.time_per_sample_s = t;
    w.time_source = "measured " + std::to_string(t) + " s per sample (given), spread by FLOPs";
  }
  if (!spec.layer_config.empty()) w.active = model::read_layer_config(spec.layer_config, w.model);
  return w;
}

std::string own_input_dataset(const std::string& model) {
  const auto src = model::ModelSource::load(model);
  return src.paradl() ? "" : "profile:1:" + src.default_input().str();
}

}  // namespace paradise::input
