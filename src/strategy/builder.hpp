// Private to the strategy module: the per-epoch account that both cost models' strategies
// fill in (time, communication and memory parts, status).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "paradise/core/table.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/input_pipeline.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/synchronisation.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::strategy::detail {

using model::Op;

using Totals = LayerSums;

/// A GPU's share of its PCIe switch's uplink while every GPU of the node copies (the
/// strategies are SPMD): the implementation's staging rate, or the system's host link, over
/// the GPUs behind the switch (docs/implementations.md §transport). 0: no host link known.
inline double host_copy_Bps(const Workload& w, const Config& c) {
  const auto& h = w.system.host;
  const double uplink =
      c.implementation.staging_Bps > 0 ? c.implementation.staging_Bps : h.bandwidth_Bps;
  const auto sharing = std::clamp<std::int64_t>(h.gpus_per_switch, 1, w.system.gpus_per_node);
  return uplink / static_cast<double>(sharing);
}

class Builder {
 public:
  /// What a cost model sets for a step: the bytes of an activation element (delta), and the
  /// share of the forward pass run again in the backward pass (activation recomputation,
  /// Chen et al. 2016; 0: none).
  struct Step {
    double element_bytes = 4;
    double forward_again = 0;
  };
  /// Resets `out` (keeping its vectors' capacity: no allocation per point in a sweep).
  Builder(const Workload& w, const LayerSums& s, const Config& c, Prediction& out, Step step)
      : w_(w), d_(step.element_bytes), p_(out) {
    // the extended model's input pipeline, prefetched behind the step (input_pipeline.hpp)
    // and the implementation's loading rank, whichever is slower
    input_s_ = c.variant == Variant::Paradise
                   ? std::max(input_iteration_s(w, c.gpus, c.batch), loader_iteration_s(w, c))
                   : 0;
    if (c.variant == Variant::Paradise &&
        implementation::managed(c.implementation, static_cast<std::size_t>(c.kind)))
      paging_Bps_ = host_copy_Bps(w, c);
    // ceil(samples / B) forward-only iterations (a whole count: integer division intended)
    // at the training batch, no optimizer step
    if (c.variant == Variant::Paradise && c.eval_samples > 0 && c.batch > 0) {
      const std::int64_t iterations =
          c.eval_samples / c.batch + (c.eval_samples % c.batch != 0 ? 1 : 0);
      eval_iterations_ = static_cast<double>(iterations);
    }
    // the framework's time per step, unless a measured time per whole step holds it
    step_overhead_s_ = c.variant == Variant::Paradise && !w.measured_whole_step
                           ? c.implementation.step_overhead_s
                           : 0;
    scale_ = 1 + step.forward_again;
    // the extended model's synchronous step ends with its slowest GPU (synchronisation.hpp)
    slowest_ = c.variant == Variant::Paradise && c.policies.wait_for_slowest_gpu
                   ? slowest_gpu_factor(w.system.gpu, c.gpus)
                   : 1;
    forward_share_ = (1 - s.backward_share) / scale_;
    backward_share_ = (s.backward_share + step.forward_again) / scale_;
    p_.status = Status::Ok;
    p_.reason.clear();
    p_.limit = Limit::None;
    p_.communication.clear();
    p_.memory.clear();
    p_.epoch_compute_s = p_.epoch_communication_s = p_.epoch_time_s = p_.iteration_time_s = 0;
    p_.iteration_compute_s = 0;
    p_.epoch_overlapped_s = 0;
    p_.epoch_input_s = 0;
    p_.epoch_eval_s = 0;
    p_.epoch_slowest_gpu_wait_s = 0;
    p_.epoch_step_overhead_s = 0;
    p_.memory_per_gpu_bytes = 0;
    p_.split_layer = -1;
    p_.split_parts = {1, 1, 1};
    // ceil(D / B) without overflow for huge B
    p_.iterations_per_epoch =
        c.batch > 0 ? w.dataset_samples / c.batch + (w.dataset_samples % c.batch != 0 ? 1 : 0) : 0;
  }
  double iterations() const { return static_cast<double>(p_.iterations_per_epoch); }
  double delta() const { return d_; }
  void invalid(std::string reason) {
    if (p_.status == Status::Ok) {
      p_.status = Status::Invalid;
      p_.reason = std::move(reason);
    }
  }
  /// Forward + backward seconds per epoch, before any recomputation (added here), worth
  /// `full_iterations` iterations of the whole batch: D / B where the last, partial batch is
  /// charged by its samples, ceil(D / B) where every iteration is charged whole.
  void compute(double epoch_s, double full_iterations) {
    p_.epoch_compute_s = epoch_s * scale_ * slowest_;
    p_.epoch_slowest_gpu_wait_s = epoch_s * scale_ * (slowest_ - 1);
    full_iterations_ = full_iterations;
  }
  /// The compute of one iteration of the whole batch (not the epoch's mean, which a partial
  /// last batch lowers).
  double iteration_compute_s() const {
    return full_iterations_ > 0 ? p_.epoch_compute_s / full_iterations_ : 0;
  }
  /// The backward pass's share of compute_s(), recomputed forward passes included.
  double backward_share() const { return backward_share_; }
  double compute_s() const { return p_.epoch_compute_s; }
  // Names must be static strings (literals): parts keep views of them.
  void comm(std::string_view name, std::string_view collective, std::string_view phase,
            std::int64_t gpus, double per_iteration_s) {
    p_.communication.push_back({name, collective, phase, gpus, per_iteration_s * iterations()});
  }
  /// An exchange of the implementation's: its transport, and the per-call overhead within
  /// per_iteration_s.
  void comm(std::string_view name, std::string_view collective, std::string_view phase,
            std::int64_t gpus, double per_iteration_s, implementation::Transport transport,
            double overhead_per_iteration_s) {
    p_.communication.push_back({name, collective, phase, gpus, per_iteration_s * iterations(),
                                implementation::transport_name(transport),
                                overhead_per_iteration_s * iterations()});
  }
  void memory(std::string_view name, double bytes) { p_.memory.push_back({name, bytes}); }
  /// The last layer a spatial strategy splits (its parallel layers stop there) and the parts
  /// along each spatial dimension.
  void split_at(int layer, const std::array<std::int64_t, 3>& parts) {
    p_.split_layer = layer;
    p_.split_parts = parts;
  }
  /// Communication hidden behind compute (per iteration): counted in its part, not in time.
  void overlapped(double per_iteration_s) {
    p_.epoch_overlapped_s += per_iteration_s * iterations();
  }
  void finish() {
    if (p_.status == Status::Invalid) {
      // a configuration that cannot run has no time or memory: NaN (missing), no parts
      constexpr double none = std::numeric_limits<double>::quiet_NaN();
      p_.communication.clear();
      p_.memory.clear();
      p_.split_layer = -1;
      p_.split_parts = {1, 1, 1};
      p_.epoch_compute_s = p_.epoch_communication_s = p_.epoch_overlapped_s = none;
      p_.epoch_input_s = p_.epoch_eval_s = p_.epoch_slowest_gpu_wait_s = none;
      p_.epoch_step_overhead_s = none;
      p_.epoch_time_s = p_.iteration_time_s = p_.iteration_compute_s = none;
      p_.memory_per_gpu_bytes = none;
      p_.limit = Limit::None;
      return;
    }
    for (const auto& m : p_.memory) p_.memory_per_gpu_bytes += m.bytes;
    const double capacity = w_.system.usable_memory_bytes();
    page_excess(capacity);
    for (const auto& c : p_.communication) p_.epoch_communication_s += c.epoch_s;
    // ParaDL: no overlap (TR §IV-B); the extended model hides some communication
    p_.epoch_time_s = p_.epoch_compute_s + p_.epoch_communication_s - p_.epoch_overlapped_s;
    // one iteration of the whole batch: its compute, and the communication every one pays
    p_.iteration_compute_s = p_.iterations_per_epoch > 0 ? iteration_compute_s() : 0;
    p_.iteration_time_s =
        p_.iterations_per_epoch > 0
            ? p_.iteration_compute_s +
                  (p_.epoch_communication_s - p_.epoch_overlapped_s) / iterations()
            : 0;
    // the framework's host time per step, which the GPUs wait for (Profile::step_overhead_s)
    if (p_.iterations_per_epoch > 0) {
      p_.epoch_step_overhead_s = step_overhead_s_ * iterations();
      p_.epoch_time_s += p_.epoch_step_overhead_s;
      p_.iteration_time_s += step_overhead_s_;
    }
    // prefetching overlaps the input of the next iteration with this one: the GPUs wait only
    // for what the pipeline needs beyond the step
    const bool input_bound = input_s_ > p_.iteration_time_s && p_.iterations_per_epoch > 0;
    if (input_bound) {
      p_.epoch_input_s = (input_s_ - p_.iteration_time_s) * iterations();
      p_.epoch_time_s += p_.epoch_input_s;
      p_.iteration_time_s = input_s_;
    }
    evaluation();
    if (p_.status == Status::Ok && p_.memory_per_gpu_bytes > capacity && paging_Bps_ <= 0) {
      p_.status = Status::OutOfMemory;
      // usable: device memory less the system's margin (what `paradise systems` lists)
      p_.reason = "needs " + human_bytes(p_.memory_per_gpu_bytes) + " per GPU, the GPU has " +
                  human_bytes(capacity) + " usable";
    }
    // otherwise the largest of compute, exposed communication and the framework's time
    const double exposed = p_.epoch_communication_s - p_.epoch_overlapped_s;
    const double busiest = std::max(p_.epoch_compute_s, exposed);
    p_.limit = p_.status == Status::OutOfMemory     ? Limit::Memory
               : input_bound                        ? Limit::Input
               : p_.epoch_step_overhead_s > busiest ? Limit::Framework
               : exposed > p_.epoch_compute_s       ? Limit::Communication
                                                    : Limit::Compute;
  }

 private:
  // Managed memory (an implementation's managed_memory): beyond the GPU's usable memory the
  // excess is paged out and back in every iteration over the host link (Chien et al. 2019
  // measured unified memory's oversubscription at the interconnect's rate, or below).
  void page_excess(double capacity) {
    if (paging_Bps_ <= 0 || p_.status != Status::Ok || p_.memory_per_gpu_bytes <= capacity) return;
    const double excess = p_.memory_per_gpu_bytes - capacity;
    comm("managed-memory paging of the excess", "page-out+page-in", "FB", 1,
         2 * excess / paging_Bps_, implementation::Transport::HostStaged, 0);
  }
  // The evaluation pass (Training::eval_samples): per iteration, the forward share of the
  // step's compute (no recomputation, no optimizer) and half of the per-layer exchanges (FB:
  // each forward exchange has a backward mirror of its size, as ParaDL's phases pair them)
  // and the framework's time per step, or the input pipeline where it is slower; no gradient
  // exchange.
  void evaluation() {
    if (eval_iterations_ <= 0 || p_.iterations_per_epoch <= 0) return;
    double per_layer_s = 0;
    for (const auto& c : p_.communication) {
      if (c.phase == "FB") per_layer_s += c.epoch_s / iterations();
    }
    const double step_s =
        iteration_compute_s() * forward_share_ + per_layer_s / 2 + step_overhead_s_;
    p_.epoch_eval_s = eval_iterations_ * std::max(step_s, input_s_);
    p_.epoch_time_s += p_.epoch_eval_s;
  }

  const Workload& w_;
  double d_;
  double scale_ = 1, slowest_ = 1, backward_share_ = 0;
  double step_overhead_s_ = 0;      ///< the framework's time per step (0: none, or measured in)
  double forward_share_ = 1.0 / 3;  ///< the forward pass's share of the step's compute
  double eval_iterations_ = 0;      ///< forward-only iterations of the evaluation pass
  double full_iterations_ = 0;
  double input_s_ = 0;     ///< seconds the input pipeline needs per iteration
  double paging_Bps_ = 0;  ///< managed memory: the host link's rate per GPU; 0: none
  Prediction& p_;
};

}  // namespace paradise::strategy::detail
