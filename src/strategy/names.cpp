#include <array>
#include <string>
#include <utility>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"

namespace paradise::strategy {
namespace {
constexpr std::array<std::pair<Kind, std::string_view>, 10> kKinds{{
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
}};
}  // namespace

std::string_view kind_name(Kind k) {
  for (const auto& [kind, name] : kKinds) {
    if (kind == k) return name;
  }
  return "?";
}

std::optional<Kind> kind_from_name(std::string_view name) {
  for (const auto& [kind, n] : kKinds) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

const std::vector<Kind>& all_kinds() {
  static const std::vector<Kind> kinds = [] {
    std::vector<Kind> v;
    v.reserve(kKinds.size());
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

bool has_groups(Kind k) {
  return k == Kind::DataFilter || k == Kind::DataSpatial || k == Kind::DataPipeline;
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
constexpr std::pair<Precision, std::string_view> kPrecisions[] = {
    {Precision::Fp32, "fp32"}, {Precision::Tf32, "tf32"}, {Precision::Mixed, "mixed"}};
constexpr std::pair<Optimizer, std::string_view> kOptimizers[] = {
    {Optimizer::Sgd, "sgd"}, {Optimizer::Momentum, "momentum"}, {Optimizer::Adam, "adam"}};

template <class E, std::size_t N>
std::string_view name_of(const std::pair<E, std::string_view> (&table)[N], E e) {
  for (const auto& [value, name] : table) {
    if (value == e) return name;
  }
  return "?";
}
template <class E, std::size_t N>
std::optional<E> value_of(const std::pair<E, std::string_view> (&table)[N], std::string_view n) {
  for (const auto& [value, name] : table) {
    if (name == n) return value;
  }
  return std::nullopt;
}
}  // namespace

std::string_view precision_name(Precision p) {
  return name_of(kPrecisions, p);
}
std::optional<Precision> precision_from_name(std::string_view name) {
  if (name == "fp16" || name == "bf16") return Precision::Mixed;
  return value_of(kPrecisions, name);
}
std::array<std::string, 4> training_parts(const Config& c) {
  const Training& p = c;
  return {std::string(precision_name(c.precision)) + " precision",
          std::string(optimizer_name(p.optimizer)) + " optimizer",
          p.zero_stage > 0 ? "ZeRO stage " + std::to_string(p.zero_stage) : "no ZeRO",
          p.recompute_activations ? "activation recomputation" : "every activation kept"};
}
std::string training_summary(const Config& c) {
  if (c.variant == Variant::Paradl) return "fp32 (ParaDL: weights, gradients and activations only)";
  const auto parts = training_parts(c);
  return parts[0] + ", " + parts[1] + ", " + parts[2] + ", " + parts[3];
}
std::string_view optimizer_name(Optimizer o) {
  return name_of(kOptimizers, o);
}
std::optional<Optimizer> optimizer_from_name(std::string_view name) {
  return value_of(kOptimizers, name);
}

std::string_view status_name(Status s) {
  switch (s) {
    case Status::Ok:
      return "ok";
    case Status::OutOfMemory:
      return "out_of_memory";
    case Status::Invalid:
      return "invalid";
  }
  return "?";
}

std::string_view limit_name(Limit l) {
  switch (l) {
    case Limit::None:
      return "none";
    case Limit::Compute:
      return "compute";
    case Limit::Communication:
      return "communication";
    case Limit::Memory:
      return "memory";
  }
  return "?";
}

}  // namespace paradise::strategy
