// ParaDL's settings (Kahira et al.): the version of its code to reproduce and whether to fix
// its bugs. Only the paradl variant's formulas (src/strategy/paradl/) read them.
#pragma once

#include <cstdint>

namespace paradise::strategy {

/// ParaDL's code changed between the runs behind its published logs; these settings select
/// a version (defaults: the released code, github.com/TruongThaoNguyen/paraDL-analysis
/// @ ce36803). The PLX cable latency (15 or 20 us) is a property of the system: abci-plx15.
struct ParadlVersion {
  /// data+filter gradient exchange across groups (docs/cost-model.md §abci):
  /// Contention: the full sum|w|, bandwidth / (2 p2) (released code);
  /// SplitContention: sum|w| with split layers / p2, bandwidth / p2 (HPDC'20 runs);
  /// Plain: the full sum|w| at the network's bandwidth.
  enum class HybridExchange : std::uint8_t { Contention, SplitContention, Plain };
  HybridExchange df_exchange = HybridExchange::Contention;
  /// data+spatial halo: false = C*floor((K-1)/2)*(H[*D]) per sample through the host
  /// (released code, docs/cost-model.md §data-spatial); true = the older W*floor((K-1)/2) of x and
  /// y (§paradl-spatial).
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

/// The paradl variant's settings: which ParaDL to reproduce.
struct ParadlSettings {
  /// ParaDL's code divides the filter/channel weights by p twice (docs/cost-model.md
  /// §paradl-quirks), one sample's halo, the loops stopping at the split layer; false reproduces
  /// its logs, true fixes them (--fix-paradl-bugs).
  bool fix_bugs = false;
  ParadlVersion version;
};

}  // namespace paradise::strategy
