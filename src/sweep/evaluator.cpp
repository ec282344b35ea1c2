#include "paradise/sweep/evaluator.hpp"

#include "paradise/core/error.hpp"
#include "paradise/model/dataset.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/system/catalog.hpp"

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
  // Unknown names are input errors; a model that cannot take a dataset's samples (2-D model,
  // 3-D data; resolution too small) makes its points invalid, with the reason.
  for (const auto& m : spec.models) model::ModelSource::load(m);
  for (const auto& d : spec.datasets) model::find_dataset(d);
  for (const auto& s : spec.systems) system::find_system(s);
  for (const auto& m : spec.models) {
    for (const auto& d : spec.datasets) {
      for (const auto& s : spec.systems) {
        try {
          workloads_.emplace_back(strategy::make_workload({m, d, s, "", 0}));
          sums_.push_back(strategy::sum_layers(workloads_.back()));
          unusable_.emplace_back();
        } catch (const InputError& e) {
          workloads_.emplace_back();
          sums_.emplace_back();
          unusable_.emplace_back(e.what());
        }
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
  PointResult r;
  if (!unusable_[index].empty()) {
    r.status = static_cast<std::uint8_t>(strategy::Status::Invalid);
    return r;
  }
  strategy::Prediction& p = scratch_;
  strategy::predict_into(workloads_[index], sums_[index], c, p);
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
