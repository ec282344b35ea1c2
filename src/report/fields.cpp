#include "paradise/report/fields.hpp"

#include <algorithm>
#include <cstddef>

namespace paradise::report {

void write_training_json(JsonWriter& j, const strategy::Config& c) {
  j.key("precision").value(strategy::precision_name(c.precision));
  if (c.variant == strategy::Variant::Paradl) return;
  // not given: PyTorch's default on the GPU (strategy::default_precision)
  j.key("precision_default").value(c.precision_by_default);
  j.key("optimizer").value(strategy::optimizer_name(c.optimizer));
  j.key("zero_stage").value(c.zero_stage);
  j.key("recompute").value(c.recompute_activations);
}

void write_split_layer(JsonWriter& j, const strategy::Workload& w, int layer,
                       const std::array<std::int64_t, 3>& parts) {
  j.key("split_layer");
  if (layer < 0) {
    j.null();
    j.key("split_parts").null();
    return;
  }
  j.value(w.model.layers[static_cast<std::size_t>(layer)].name);
  j.key("split_parts").begin_array();
  for (int u = 0; u < std::max(w.model.input.rank, 1); ++u)
    j.value(parts[static_cast<std::size_t>(u)]);
  j.end_array();
}

void write_convergence(JsonWriter& j, const std::optional<model::Convergence>& epochs) {
  j.key("convergence");
  if (!epochs) {
    j.null();
    return;
  }
  j.begin_object();
  j.key("epochs_min").value(epochs->epochs_min);
  j.key("noise_batch").value(epochs->noise_batch);
  j.key("source").value(epochs->source);
  j.end_object();
}

std::string split_parts_text(const std::array<std::int64_t, 3>& parts, int rank) {
  static constexpr std::array<const char*, 3> names{"W", "H", "D"};
  std::string counts, dims;
  for (std::size_t u = 0; u < static_cast<std::size_t>(std::max(rank, 1)); ++u) {
    if (parts[u] < 2) continue;
    counts += (counts.empty() ? "" : " x ") + std::to_string(parts[u]);
    dims += (dims.empty() ? "" : " x ") + std::string(names[u]);
  }
  return counts.empty() ? "1 part" : counts + " parts along " + dims;
}

std::string group_size_text(strategy::Kind k, std::int64_t p2) {
  return std::to_string(p2) +
         (k == strategy::Kind::DataPipeline ? " stages per replica" : " GPUs per group");
}

}  // namespace paradise::report
