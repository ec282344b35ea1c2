// Private to the strategy module: per-epoch accounting shared by the strategy formulas.
#pragma once

#include <cmath>
#include <string>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy::detail {

using model::Op;

// ParaDL sums activations over layers that are not in place (summary_network2, §1.5.4).
inline bool counts_for_memory(const model::LayerStats& l) {
  return l.op != Op::Activation && l.op != Op::BatchNorm && l.op != Op::Input;
}

struct Totals {
  double x = 0, y = 0;  // sum |x_l|, |y_l| per sample (memory layers)
  double x_active = 0, y_active = 0;
  double w = 0, w_active = 0;  // sum |w_l|
  double t = 0, t_active = 0;  // seconds per sample
};

inline Totals totals(const Workload& wl) {
  Totals s;
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

class Builder {
 public:
  Builder(const Workload& w, const Config& c)
      : w_(w), c_(c), d_(static_cast<double>(c.activation_bytes)) {
    p_.iterations_per_epoch = (w.dataset_samples + c.batch - 1) / c.batch;
  }
  double iterations() const { return static_cast<double>(p_.iterations_per_epoch); }
  double delta() const { return d_; }
  void invalid(std::string reason) {
    if (p_.status == Status::Ok) {
      p_.status = Status::Invalid;
      p_.reason = std::move(reason);
    }
  }
  void compute(double epoch_s) { p_.epoch_compute_s = epoch_s; }
  void comm(std::string name, std::string collective, std::string phase, std::int64_t gpus,
            double per_iteration_s) {
    p_.communication.push_back({std::move(name), std::move(collective), std::move(phase), gpus,
                                per_iteration_s * iterations()});
  }
  void memory(std::string name, double bytes) { p_.memory.push_back({std::move(name), bytes}); }
  Prediction finish() {
    for (const auto& c : p_.communication) p_.epoch_communication_s += c.epoch_s;
    for (const auto& m : p_.memory) p_.memory_per_gpu_bytes += m.bytes;
    p_.epoch_time_s = p_.epoch_compute_s + p_.epoch_communication_s;  // no overlap (TR §IV-B)
    p_.iteration_time_s = p_.epoch_time_s / iterations();
    const double capacity = w_.system.gpu.memory_bytes * (1 - w_.system.memory_margin_fraction);
    if (p_.status == Status::Ok && p_.memory_per_gpu_bytes > capacity) {
      p_.status = Status::OutOfMemory;
      p_.reason = "needs " + std::to_string(std::llround(p_.memory_per_gpu_bytes / 1e6)) +
                  " MB per GPU, the GPU has " + std::to_string(std::llround(capacity / 1e6)) +
                  " MB";
    }
    p_.limit = p_.status == Status::OutOfMemory                ? Limit::Memory
               : p_.epoch_communication_s > p_.epoch_compute_s ? Limit::Communication
                                                               : Limit::Compute;
    if (p_.status == Status::Invalid) p_.limit = Limit::None;
    return p_;
  }

 private:
  const Workload& w_;
  const Config& c_;
  double d_;
  Prediction p_;
};

void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);

}  // namespace paradise::strategy::detail
