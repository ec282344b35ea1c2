// Enum <-> name tables: one constant array of {value, name} pairs gives both directions.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace paradise {

template <class E>
using NamePair = std::pair<E, std::string_view>;

/// The name of `e` in `table`, "?" for a value the table lacks.
template <class E, std::size_t N>
constexpr std::string_view name_in(const NamePair<E> (&table)[N], E e) {
  for (const auto& [value, name] : table) {
    if (value == e) return name;
  }
  return "?";
}

/// The value named `n` in `table`, none for an unknown name.
template <class E, std::size_t N>
constexpr std::optional<E> value_in(const NamePair<E> (&table)[N], std::string_view n) {
  for (const auto& [value, name] : table) {
    if (name == n) return value;
  }
  return std::nullopt;
}

}  // namespace paradise
