#include "map_buffers.hpp"

#include <span>
#include <string>

namespace paradise::engine {

MapBuffers::MapBuffers(Storage storage, const sweep::Searched& searched) {
  for (const auto& v : map_variables()) {
    if (kept(v, storage, searched)) columns_.push_back({&v, {}, {}, {}});
  }
}

void MapBuffers::clear() {
  for (auto& c : columns_) {
    c.codes.clear();
    c.counts.clear();
    c.values.clear();
  }
}

void MapBuffers::Column::push(double v) {
  if (variable->type == MapType::u8) {
    codes.push_back(static_cast<std::uint8_t>(v));
  } else if (variable->type == MapType::i32) {
    counts.push_back(static_cast<std::int32_t>(v));
  } else {
    values.push_back(v);
  }
}

void MapBuffers::add(const sweep::PointResult& r) {
  for (auto& c : columns_) c.push(c.variable->of_point(r));
}

void MapBuffers::add(const sweep::CellResult& cell) {
  for (auto& c : columns_) c.push(c.variable->of_cell(cell));
}

void MapBuffers::write(io::SweepFileWriter& out, std::uint64_t begin) const {
  for (const auto& c : columns_) {
    const std::string name(c.variable->name);
    if (c.variable->type == MapType::u8) {
      out.write(name, begin, std::span<const std::uint8_t>(c.codes));
    } else if (c.variable->type == MapType::i32) {
      out.write(name, begin, std::span<const std::int32_t>(c.counts));
    } else {
      out.write(name, begin, std::span<const double>(c.values));
    }
  }
}

}  // namespace paradise::engine
