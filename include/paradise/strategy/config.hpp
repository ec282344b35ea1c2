// The inputs of one prediction besides model and system: strategy, GPUs, batch, variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace paradise::strategy {

enum class Kind : std::uint8_t {
  Serial,
  Data,
  Spatial,
  Filter,
  Channel,
  Pipeline,
  DataFilter,
  DataSpatial,
};

/// "serial", "data", "spatial", "filter", "channel", "pipeline", "data+filter", "data+spatial".
std::string_view kind_name(Kind k);
std::optional<Kind> kind_from_name(std::string_view name);
const std::vector<Kind>& all_kinds();

enum class Variant : std::uint8_t {
  Paradl,   ///< ParaDL's formulas and parametrisation as published (issue 3)
  Paradise  ///< the extended model (roofline compute, algorithm choice, overlap, full memory)
};
std::string_view variant_name(Variant v);

struct Config {
  Kind kind = Kind::Data;
  std::int64_t gpus = 1;      ///< p
  std::int64_t batch = 1;     ///< global mini-batch B
  std::int64_t p2 = 0;        ///< hybrids: GPUs per group (0: GPUs per node)
  std::int64_t segments = 0;  ///< pipeline micro-batches S (0: = p)
  int activation_bytes = 4;   ///< delta (fp32)
  Variant variant = Variant::Paradl;
  /// ParaDL's code divides the filter/channel weights by p twice (cost-model-notes §1.9.1);
  /// false reproduces its logs, true fixes it.
  bool fix_paradl_bugs = false;
};

}  // namespace paradise::strategy
