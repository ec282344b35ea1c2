// Private to the strategy module: per-epoch accounting shared by the strategy formulas.
#pragma once

#include <cmath>
#include <string>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy::detail {

using model::Op;

using Totals = LayerSums;

class Builder {
 public:
  /// Resets `out` (keeping its vectors' capacity: no allocation per point in a sweep).
  Builder(const Workload& w, const Config& c, Prediction& out)
      : w_(w), d_(static_cast<double>(c.activation_bytes)), p_(out) {
    p_.status = Status::Ok;
    p_.reason.clear();
    p_.limit = Limit::None;
    p_.communication.clear();
    p_.memory.clear();
    p_.epoch_compute_s = p_.epoch_communication_s = p_.epoch_time_s = p_.iteration_time_s = 0;
    p_.memory_per_gpu_bytes = 0;
    p_.iterations_per_epoch = c.batch > 0 ? (w.dataset_samples + c.batch - 1) / c.batch : 0;
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
  // Names must be static strings (literals): parts keep views of them.
  void comm(std::string_view name, std::string_view collective, std::string_view phase,
            std::int64_t gpus, double per_iteration_s) {
    p_.communication.push_back({name, collective, phase, gpus, per_iteration_s * iterations()});
  }
  void memory(std::string_view name, double bytes) { p_.memory.push_back({name, bytes}); }
  void finish() {
    for (const auto& c : p_.communication) p_.epoch_communication_s += c.epoch_s;
    for (const auto& m : p_.memory) p_.memory_per_gpu_bytes += m.bytes;
    p_.epoch_time_s = p_.epoch_compute_s + p_.epoch_communication_s;  // no overlap (TR §IV-B)
    p_.iteration_time_s = p_.iterations_per_epoch > 0 ? p_.epoch_time_s / iterations() : 0;
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
  }

 private:
  const Workload& w_;
  double d_;
  Prediction& p_;
};

void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);

}  // namespace paradise::strategy::detail
