// The maps of a sweep's HDF5 file, declared once: this table creates the variables, fills
// and writes them, sizes the output (bytes_per_cell), and is written into the file as
// attributes of each variable (storage_levels, ancillary_variables, minimum_of), so that
// readers such as analysis/paradise_h5.py take the layout from the file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "paradise/engine/sweep_request.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/reduction.hpp"

namespace paradise::engine {

/// The HDF5 type of a map's values: 8-bit unsigned codes, 32-bit counts or 64-bit floats.
enum class MapType { u8, i32, f64 };

/// A bit per storage level (levels_of(Storage::full | ...)).
constexpr unsigned level_bit(Storage s) {
  return 1u << static_cast<unsigned>(s);
}

/// One map of the file: over every axis per point (full, maps), or over the kept axes per
/// reduced cell (summary).
struct MapVariable {
  std::string_view name;
  MapType type = MapType::f64;
  unsigned levels = 0;             ///< level_bit()s of the storage levels that have it
  std::string_view units;          ///< CF units (UDUNITS); empty: none
  std::string_view description;    ///< long_name; "{over}" stands for the reduced axes
  std::string_view flag_meanings;  ///< a flag map's codes 0, 1, ... in words; empty: none
  std::string_view status;         ///< the flag map saying where a value means something
  std::string_view minimum_of;     ///< summary: the per-point map a cell holds the least of
  double (*of_point)(const sweep::PointResult&) = nullptr;  ///< full, maps
  double (*of_cell)(const sweep::CellResult&) = nullptr;    ///< summary
  /// The shape whose values used it holds (p2, segments, spatial_split): kept only in a
  /// sweep that searches it (sweep::Searched); empty: in every sweep.
  std::string_view searched{};
  bool at(Storage s) const { return (levels & level_bit(s)) != 0; }
};

/// Every map, in the order the file creates them.
std::span<const MapVariable> map_variables();
/// Whether a sweep at storage `s` that searches `searched` keeps `v`.
bool kept(const MapVariable& v, Storage s, const sweep::Searched& searched);

/// The storage levels that have `v`, by name: "full maps".
std::string storage_levels(const MapVariable& v);

/// Bytes per stored point (full, maps) or reduced cell (summary) of the maps at `s`, before
/// compression: the sizes of its variables' types summed.
double bytes_per_cell(Storage s, const sweep::Searched& searched = {});

}  // namespace paradise::engine
