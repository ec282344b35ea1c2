#include <array>
#include <utility>

#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"

namespace paradise::strategy {
namespace {
constexpr std::array<std::pair<Kind, std::string_view>, 8> kKinds{{
    {Kind::Serial, "serial"},
    {Kind::Data, "data"},
    {Kind::Spatial, "spatial"},
    {Kind::Filter, "filter"},
    {Kind::Channel, "channel"},
    {Kind::Pipeline, "pipeline"},
    {Kind::DataFilter, "data+filter"},
    {Kind::DataSpatial, "data+spatial"},
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
    for (const auto& [kind, name] : kKinds) v.push_back(kind);
    return v;
  }();
  return kinds;
}

std::string_view variant_name(Variant v) {
  return v == Variant::Paradl ? "paradl" : "paradise";
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
