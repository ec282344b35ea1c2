// A node's input pipeline: the slowest stage bounds it (docs/gpu-profiles.md §input).
#include "paradise/strategy/input_pipeline.hpp"

#include <algorithm>
#include <cmath>

namespace paradise::strategy {
namespace {

// seconds for `amount` at `rate` per second; a rate of 0 bounds nothing
double at(double amount, double rate) {
  return rate > 0 ? amount / rate : 0;
}

}  // namespace

double input_iteration_s(const Workload& w, std::int64_t gpus, std::int64_t batch) {
  const system::InputPipeline& in = w.system.input;
  const double per_node = static_cast<double>(std::max<std::int64_t>(1, w.system.gpus_per_node));
  const double nodes = std::max(1.0, std::ceil(static_cast<double>(gpus) / per_node));
  const double samples = static_cast<double>(batch) / nodes;  // each node's share
  const double bytes = samples * w.sample_stored_bytes;
  const double cores = static_cast<double>(in.cpu_cores_per_node);
  const double decode = w.sample_format == model::SampleFormat::Jpeg
                            ? at(samples, cores * in.jpeg_samples_per_core_s)
                            : at(bytes, cores * in.raw_Bps_per_core);
  const double read = at(bytes, in.node_read_Bps);
  const double filesystem =
      at(static_cast<double>(batch) * w.sample_stored_bytes, in.filesystem_Bps);
  return std::max({decode, read, filesystem});
}

}  // namespace paradise::strategy
