// A System back to the *.system INI format that system::parse_system_file reads
// (docs/models-and-systems.md, "Systems"), for calibrated systems.
#pragma once

#include <iosfwd>
#include <string>

#include "paradise/system/system.hpp"

namespace paradise::calibrate {

/// Writes every field in the file's units (GB, GB/s, TFLOP/s, us), each with the fewest
/// digits that read back to the same double;
/// `comment` (may span lines) goes first as '#' lines.
void write_system_file(std::ostream& out, const system::System& s, const std::string& comment);

}  // namespace paradise::calibrate
