#include "paradise/strategy/workload.hpp"

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
  for (double f : flops) t.push_back(total > 0 ? time_per_sample_s * f / total : 0.0);
  return t;
}

bool counts_for_memory(const model::LayerStats& l) {
  return l.op != model::Op::Activation && l.op != model::Op::BatchNorm && l.op != model::Op::Input;
}

LayerSums sum_layers(const Workload& wl) {
  LayerSums s;
  for (std::size_t i = 0; i < wl.model.layers.size(); ++i) {
    const auto& l = wl.model.layers[i];
    const bool a = wl.active[i];
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
  return s;
}

std::vector<bool> default_active_layers(const model::ModelStats& m) {
  std::vector<bool> a;
  for (const auto& l : m.layers) a.push_back(l.op == model::Op::Conv);
  return a;
}

}  // namespace paradise::strategy

#include "paradise/core/error.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::strategy {

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
    w.dataset_samples = d.samples;
  }
  double t = spec.time_per_sample_s;
  if (t < 0) throw InputError("time per sample must be positive");
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
  w.active = spec.layer_config.empty() ? default_active_layers(w.model)
                                       : model::read_layer_config(spec.layer_config, w.model);
  return w;
}

}  // namespace paradise::strategy
