// Private to the strategy module: ParaDL's per-epoch model (Kahira et al., HPDC'21; TR Table
// III, eqs. 3-22; docs/cost-model.md §paradl-per-epoch) as its code computes it, one file per
// strategy, frozen: the versions of its code behind its published logs are ParadlSettings'
// (paradise/strategy/paradl_version.hpp). T_comp and T_comm per epoch, memory per GPU.
#pragma once

#include <cstdint>
#include <string_view>

#include "../builder.hpp"
#include "../planning.hpp"
#include "paradise/system/system.hpp"

namespace paradise::strategy::paradl {

using detail::Builder;
using detail::Totals;

void serial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data(const Workload& w, const Config& c, const Totals& s, Builder& b);
/// Filter (filter = true) or channel parallelism.
void filter_channel(const Workload& w, const Config& c, const Totals& s, Builder& b, bool filter);
void pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b);
void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_filter(const Workload& w, const Config& c, const Totals& s, Builder& b);
void data_spatial(const Workload& w, const Config& c, const Totals& s, Builder& b);

/// The step ParaDL's model accounts: delta = Config::activation_bytes, nothing recomputed.
Builder::Step step(const Config& c);

// Shared by ParaDL's strategies (shared.cpp).

/// Allreduce of `bytes` with the configured algorithm over `link` (ParaDL: ring, TR §IV-B).
double gradient_allreduce(const Config& c, const system::Link& link, std::int64_t p, double bytes);
std::string_view gradient_label(const Config& c);
/// sum over layers l <= upto of t_l, divided by q for the parallel layers (up to `last`)
double split_time(const Workload& w, double q, int upto, int last = detail::kAllLayers);
/// C * floor((K-1)/2) * the extents of the spatial dimensions that are not split (W is).
double full_halo_elements(const model::LayerStats& l);
/// The old W-only halo (docs/cost-model.md §paradl-spatial): 2(a + W(y)k delta b) + 2(a + W(x)k
/// delta b) per layer.
double width_only_halo(const model::LayerStats& l, const system::Link& link, double samples,
                       double delta);
/// Activation elements per sample of layers 0..upto, input and output, the split ones (up
/// to `split`) divided q ways; ReLU and batch norm counted, as ParaDL's spatial logs need.
double split_activations(const Workload& w, int upto, int split, double q);

}  // namespace paradise::strategy::paradl
