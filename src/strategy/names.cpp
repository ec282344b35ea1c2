#include "paradise/core/names.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <utility>

#include "paradise/core/table.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"

namespace paradise::strategy {
namespace {
constexpr NamePair<Kind> kKinds[] = {
    {Kind::Serial, "serial"},
    {Kind::Data, "data"},
    {Kind::Spatial, "spatial"},
    {Kind::Filter, "filter"},
    {Kind::Channel, "channel"},
    {Kind::Pipeline, "pipeline"},
    {Kind::DataFilter, "data+filter"},
    {Kind::DataSpatial, "data+spatial"},
    {Kind::DataPipeline, "data+pipeline"},
    {Kind::Daso, "daso"},
};
}  // namespace

std::string_view kind_name(Kind k) {
  return name_in(kKinds, k);
}

std::optional<Kind> kind_from_name(std::string_view name) {
  return value_in(kKinds, name);
}

const std::vector<Kind>& all_kinds() {
  static const std::vector<Kind> kinds = [] {
    std::vector<Kind> v;
    v.reserve(std::size(kKinds));
    for (const auto& [kind, name] : kKinds) v.push_back(kind);
    return v;
  }();
  return kinds;
}

std::string kind_list() {
  std::string s;
  for (const auto& [kind, name] : kKinds) s += (s.empty() ? "" : ", ") + std::string(name);
  return s;
}

std::string count_text(std::int64_t v) {
  return v == kSearched ? "auto" : std::to_string(v);
}

std::optional<std::int64_t> count_from_text(std::string_view text) {
  if (text == "auto") return kSearched;
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t v = 0;
  for (const char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  if (v < 1) return std::nullopt;
  return v;
}

bool models(Variant v, Kind k) {
  return v == Variant::Paradise || (k != Kind::DataPipeline && k != Kind::Daso);
}

std::string_view variant_name(Variant v) {
  return v == Variant::Paradl ? "paradl" : "paradise";
}

std::optional<Variant> variant_from_name(std::string_view name) {
  if (name == "paradl") return Variant::Paradl;
  if (name == "paradise") return Variant::Paradise;
  return std::nullopt;
}

namespace {
constexpr NamePair<SpatialSplit> kSpatialSplits[] = {{SpatialSplit::W, "w"},
                                                     {SpatialSplit::HW, "hw"},
                                                     {SpatialSplit::All, "all"},
                                                     {SpatialSplit::Auto, "auto"}};
}  // namespace

std::string_view spatial_split_name(SpatialSplit s) {
  return name_in(kSpatialSplits, s);
}

std::optional<SpatialSplit> spatial_split_from_name(std::string_view name) {
  return value_in(kSpatialSplits, name);
}

int spatial_split_dims(SpatialSplit s, int rank) {
  switch (s) {
    case SpatialSplit::HW:
      return std::min(2, rank);
    case SpatialSplit::All:
      return rank;
    case SpatialSplit::W:
    case SpatialSplit::Auto:
      break;
  }
  return 1;
}

namespace {
constexpr NamePair<Precision> kPrecisions[] = {
    {Precision::Fp32, "fp32"}, {Precision::Tf32, "tf32"}, {Precision::Mixed, "mixed"}};
constexpr NamePair<Optimizer> kOptimizers[] = {
    {Optimizer::Sgd, "sgd"}, {Optimizer::Momentum, "momentum"}, {Optimizer::Adam, "adam"}};

}  // namespace

std::string_view precision_name(Precision p) {
  return name_in(kPrecisions, p);
}
std::optional<Precision> precision_from_name(std::string_view name) {
  if (name == "fp16" || name == "bf16") return Precision::Mixed;
  return value_in(kPrecisions, name);
}
std::array<std::string, 4> training_parts(const Config& c) {
  const Training& p = c;
  return {std::string(precision_name(c.precision)) + " precision" +
              (c.precision_by_default ? " (default)" : ""),
          std::string(optimizer_name(p.optimizer)) + " optimizer",
          p.zero_stage > 0 ? "ZeRO stage " + std::to_string(p.zero_stage) : "no ZeRO",
          p.recompute_activations ? "activation recomputation" : "every activation kept"};
}
std::string evaluation_text(const Config& c) {
  if (c.variant != Variant::Paradise || c.eval_samples <= 0) return "";
  return "; an evaluation pass over " + with_commas(c.eval_samples) + " samples per epoch";
}
std::string training_summary(const Config& c) {
  if (c.variant == Variant::Paradl) return "fp32 (ParaDL: weights, gradients and activations only)";
  const auto parts = training_parts(c);
  return parts[0] + ", " + parts[1] + ", " + parts[2] + ", " + parts[3] + evaluation_text(c);
}
std::string_view optimizer_name(Optimizer o) {
  return name_in(kOptimizers, o);
}
std::optional<Optimizer> optimizer_from_name(std::string_view name) {
  return value_in(kOptimizers, name);
}

namespace {
constexpr NamePair<Status> kStatuses[] = {
    {Status::Ok, "ok"}, {Status::OutOfMemory, "out_of_memory"}, {Status::Invalid, "invalid"}};
constexpr NamePair<Limit> kLimits[] = {
    {Limit::None, "none"},     {Limit::Compute, "compute"}, {Limit::Communication, "communication"},
    {Limit::Memory, "memory"}, {Limit::Input, "input"},     {Limit::Framework, "framework"}};
}  // namespace

std::string_view status_name(Status s) {
  return name_in(kStatuses, s);
}

std::string_view limit_name(Limit l) {
  return name_in(kLimits, l);
}

}  // namespace paradise::strategy
