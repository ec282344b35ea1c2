// `paradise systems`' output: the built-in machines as a table, one machine in full, either
// as JSON (SI units, as inside the model).
#pragma once

#include <ostream>
#include <vector>

#include "paradise/core/json_writer.hpp"
#include "paradise/system/system.hpp"

namespace paradise::report {

/// One row per system: GPU, counts, peak, memory, margin and network levels.
void print_system_list(std::ostream& out, const std::vector<system::System>& systems);
/// One system as a JSON object.
void write_system_json(JsonWriter& j, const system::System& s);
/// One system in full: GPU peaks, memory and the usable part, GEMM curve, network levels.
void print_system(std::ostream& out, const system::System& s);

}  // namespace paradise::report
