// The table of the sweep file's maps (output_layout.hpp) and the storage levels' names.
#include "paradise/engine/output_layout.hpp"

#include <array>

namespace paradise::engine {
namespace {

constexpr unsigned kPerPoint = level_bit(Storage::full) | level_bit(Storage::maps);
constexpr unsigned kFull = level_bit(Storage::full);
constexpr unsigned kSummary = level_bit(Storage::summary);
constexpr std::string_view kStatusMeanings = "ok out_of_memory invalid";

using Point = sweep::PointResult;
using Cell = sweep::CellResult;

// name, type, levels, units, description, flag meanings, status, minimum of, values, the
// shape searched
const std::array<MapVariable, 14> kMaps{{
    {"status", MapType::u8, kPerPoint, "", "0 ok, 1 out_of_memory, 2 invalid", kStatusMeanings, "",
     "", [](const Point& r) -> double { return r.status; }, nullptr},
    {"memory_per_gpu_bytes", MapType::f64, kPerPoint, "byte", "memory per GPU in bytes", "",
     "status", "", [](const Point& r) { return r.memory_per_gpu_bytes; }, nullptr},
    {"limiting_factor", MapType::u8, kFull, "",
     "0 none, 1 compute, 2 communication, 3 memory, 4 input, 5 framework",
     "none compute communication memory input framework", "status", "",
     [](const Point& r) -> double { return r.limit; }, nullptr},
    {"iteration_time_s", MapType::f64, kFull, "s", "time per iteration in seconds", "", "status",
     "", [](const Point& r) { return r.iteration_time_s; }, nullptr},
    {"epoch_time_s", MapType::f64, kFull, "s", "time per epoch in seconds", "", "status", "",
     [](const Point& r) { return r.epoch_time_s; }, nullptr},
    {"compute_time_s", MapType::f64, kFull, "s", "compute time per epoch in seconds", "", "status",
     "", [](const Point& r) { return r.epoch_compute_s; }, nullptr},
    {"communication_time_s", MapType::f64, kFull, "s", "communication time per epoch in seconds",
     "", "status", "", [](const Point& r) { return r.epoch_communication_s; }, nullptr},
    {"framework_time_s", MapType::f64, kFull, "s",
     "framework time per step (the implementation's step overhead) per epoch in seconds", "",
     "status", "", [](const Point& r) { return r.epoch_step_overhead_s; }, nullptr},
    {"p2_chosen", MapType::i32, kPerPoint, "1",
     "GPUs per group (data+pipeline: stages) used, auto's choice where p2 is auto; 0: none", "",
     "status", "", [](const Point& r) -> double { return r.p2_used; }, nullptr, "p2"},
    {"segments_chosen", MapType::i32, kPerPoint, "1",
     "pipeline micro-batches used, auto's choice where segments is auto; 0: none", "", "status", "",
     [](const Point& r) -> double { return r.segments_used; }, nullptr, "segments"},
    {"spatial_split_chosen", MapType::u8, kPerPoint, "",
     "spatial split used, auto's choice where spatial_split is auto: 0 none, 1 w, 2 hw, 3 all",
     "none w hw all", "status", "", [](const Point& r) -> double { return r.spatial_split_used; },
     nullptr, "spatial_split"},
    {"best_status", MapType::u8, kSummary, "",
     "best status over {over}: 0 ok, 1 out_of_memory, 2 invalid", kStatusMeanings, "", "status",
     nullptr, [](const Cell& c) -> double { return c.best_status; }},
    {"min_memory_per_gpu_bytes", MapType::f64, kSummary, "byte",
     "least memory per GPU in bytes over {over} (NaN: all invalid)", "", "best_status",
     "memory_per_gpu_bytes", nullptr, [](const Cell& c) { return c.min_memory_per_gpu_bytes; }},
    {"min_epoch_time_s", MapType::f64, kSummary, "s",
     "shortest feasible epoch in seconds over {over} (NaN: none feasible)", "", "best_status",
     "epoch_time_s", nullptr, [](const Cell& c) { return c.min_epoch_time_s; }},
}};

constexpr std::array<Storage, 3> kLevels{Storage::full, Storage::maps, Storage::summary};

}  // namespace

std::span<const MapVariable> map_variables() {
  return kMaps;
}

bool kept(const MapVariable& v, Storage s, const sweep::Searched& searched) {
  if (!v.at(s)) return false;
  if (v.searched == "p2") return searched.p2;
  if (v.searched == "segments") return searched.segments;
  if (v.searched == "spatial_split") return searched.spatial_split;
  return true;
}

std::string storage_levels(const MapVariable& v) {
  std::string out;
  for (const Storage s : kLevels) {
    if (v.at(s)) out += (out.empty() ? "" : " ") + std::string(storage_name(s));
  }
  return out;
}

double bytes_per_cell(Storage s, const sweep::Searched& searched) {
  double bytes = 0;
  for (const auto& v : kMaps) {
    if (!kept(v, s, searched)) continue;
    bytes += v.type == MapType::u8    ? sizeof(std::uint8_t)
             : v.type == MapType::i32 ? sizeof(std::int32_t)
                                      : sizeof(double);
  }
  return bytes;
}

}  // namespace paradise::engine
