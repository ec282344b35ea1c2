// A node's input pipeline: the slowest stage bounds it (docs/gpu-profiles.md §input); and
// the implementation's loading rank (docs/implementations.md §loader).
#include "paradise/strategy/input_pipeline.hpp"

#include <algorithm>
#include <cmath>

#include "planning.hpp"

namespace paradise::strategy {
namespace {

// seconds for `amount` at `rate` per second; a rate of 0 bounds nothing
double at(double amount, double rate) {
  return rate > 0 ? amount / rate : 0;
}

// The data-parallel replicas among which the batch is divided: each GPU of data parallelism
// and DASO, each group of a hybrid (p2 GPUs; data+pipeline's stages), one for the strategies
// whose GPUs all train the same samples.
double replicas(const Workload& w, const Config& c) {
  switch (c.kind) {
    case Kind::Data:
    case Kind::Daso:
      return static_cast<double>(c.gpus);
    case Kind::DataFilter:
    case Kind::DataSpatial:
    case Kind::DataPipeline: {
      const std::int64_t group = std::max<std::int64_t>(1, detail::group_size(w, c));
      return static_cast<double>(std::max<std::int64_t>(1, c.gpus / group));
    }
    default:
      return 1;
  }
}

}  // namespace

double loader_iteration_s(const Workload& w, const Config& c) {
  const double rate = c.implementation.loader_samples_per_s;
  return at(static_cast<double>(c.batch) / replicas(w, c), rate);
}

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
