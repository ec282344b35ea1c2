// One work chunk's values of the maps a storage level keeps (output_layout.hpp), column by
// column, and their collective write.
#pragma once

#include <cstdint>
#include <vector>

#include "paradise/engine/output_layout.hpp"
#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::engine {

class MapBuffers {
 public:
  MapBuffers(Storage storage, const sweep::Searched& searched);
  void clear();
  /// A point's values (full, maps) or a reduced cell's (summary).
  void add(const sweep::PointResult& r);
  void add(const sweep::CellResult& c);
  /// Collective: every column at the flat range starting at `begin`.
  void write(io::SweepFileWriter& out, std::uint64_t begin) const;

 private:
  struct Column {
    const MapVariable* variable;
    std::vector<std::uint8_t> codes;   ///< MapType::u8
    std::vector<std::int32_t> counts;  ///< MapType::i32
    std::vector<double> values;        ///< MapType::f64
    void push(double v);
  };
  std::vector<Column> columns_;
};

}  // namespace paradise::engine
