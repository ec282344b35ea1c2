#include "paradise/sweep/evaluator.hpp"

#include "paradise/core/error.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::sweep {

Grid make_grid(const SweepSpec& s) {
  return Grid({Axis{"model", s.models, {}}, Axis{"dataset", s.datasets, {}},
               Axis{"system", s.systems, {}}, Axis{"strategy", s.strategies, {}},
               Axis{"gpus", {}, s.gpus}, Axis{"batch", {}, s.batch}});
}

Evaluator::Evaluator(const SweepSpec& spec) : spec_(spec), grid_(make_grid(spec)) {
  for (const auto& name : spec.strategies) {
    const auto k = strategy::kind_from_name(name);
    if (!k)
      throw InputError(
          "strategy '" + name +
          "': unknown (serial data spatial filter channel pipeline data+filter data+spatial)");
    kinds_.push_back(*k);
  }
  for (std::int64_t g : spec.gpus) {
    if (g < 1) throw InputError("gpus '" + std::to_string(g) + "': must be >= 1");
  }
  for (std::int64_t b : spec.batch) {
    if (b < 1) throw InputError("batch '" + std::to_string(b) + "': must be >= 1");
  }
  for (const auto& m : spec.models) {
    for (const auto& d : spec.datasets) {
      for (const auto& s : spec.systems) {
        strategy::WorkloadSpec ws;
        ws.model = m;
        ws.dataset = d;
        ws.system = s;
        workloads_.push_back(strategy::make_workload(ws));
      }
    }
  }
}

PointResult Evaluator::evaluate(std::uint64_t index) const {
  // decode without allocation: batch fastest, then gpus, strategy, system, dataset, model
  const auto nb = spec_.batch.size(), ng = spec_.gpus.size(), nk = kinds_.size();
  const std::uint64_t b = index % nb;
  index /= nb;
  const std::uint64_t g = index % ng;
  index /= ng;
  const std::uint64_t k = index % nk;
  index /= nk;  // index is now the workload number (model, dataset, system)
  strategy::Config c;
  c.kind = kinds_[k];
  c.gpus = spec_.gpus[g];
  c.batch = spec_.batch[b];
  c.variant = spec_.variant;
  const strategy::Prediction p = strategy::predict(workloads_[index], c);
  PointResult r;
  r.status = static_cast<std::uint8_t>(p.status);
  r.limit = static_cast<std::uint8_t>(p.limit);
  r.memory_per_gpu_bytes = p.memory_per_gpu_bytes;
  r.epoch_time_s = p.epoch_time_s;
  r.iteration_time_s = p.iteration_time_s;
  r.epoch_compute_s = p.epoch_compute_s;
  r.epoch_communication_s = p.epoch_communication_s;
  return r;
}

}  // namespace paradise::sweep
