// The inputs of one prediction besides model and system: strategy, GPUs, batch, variant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/cost/collectives.hpp"

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

/// ParaDL's code changed between the runs behind its published logs; these settings select
/// a version (defaults: the released code, github.com/TruongThaoNguyen/paraDL-analysis
/// @ ce36803). The PLX cable latency (15 or 20 us) is a property of the system: abci-plx15.
struct ParadlVersion {
  /// data+filter gradient exchange across groups (cost-model-notes §1.6.3):
  /// Contention: the full sum|w|, bandwidth / (2 p2) (released code);
  /// SplitContention: sum|w| with split layers / p2, bandwidth / p2 (HPDC'20 runs);
  /// Plain: the full sum|w| at the network's bandwidth.
  enum class HybridExchange : std::uint8_t { Contention, SplitContention, Plain };
  HybridExchange df_exchange = HybridExchange::Contention;
  /// data+spatial halo: false = C*floor((K-1)/2)*(H[*D]) per sample through the host
  /// (released code, §1.4.2); true = the older W*floor((K-1)/2) of x and y (§1.4.3).
  bool ds_width_only_halo = false;
  bool ds_halo_one_sample = false;     ///< old halo for one sample, not b (resnet_ranking)
  bool ds_halo_link_override = false;  ///< use ds_halo_alpha_s / ds_halo_beta below
  double ds_halo_alpha_s = 0;
  double ds_halo_beta_s_per_byte = 0;
  bool ds_gather_divided_by_p2 = false;     ///< split-layer allgather of b|y_s|/p2 (not b|y_s|)
  double ds_global_beta_factor = 0;         ///< global allreduce bandwidth divisor; 0: 2 p2
  bool ds_compute_uses_iterations = false;  ///< T_comp = I b c (cosmoflow.log) not (D/p1) c
  bool filter_nvlink_latency = false;       ///< alpha = 9 us whatever p (64/filter.log2 §1)
};

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
  ParadlVersion paradl;
  /// Spatial: split every spatial dimension (p = pw x ph [x pd]) instead of ParaDL's W only.
  bool spatial_all_dims = false;
  /// Gradient allreduce algorithm (data, spatial and the hybrids' exchanges); ParaDL: ring.
  cost::AllreduceAlgorithm gradient_allreduce = cost::AllreduceAlgorithm::Ring;
};

}  // namespace paradise::strategy
