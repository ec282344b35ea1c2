// Built-in systems and system files (*.system, INI; format in docs/models-and-systems.md).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/system/system.hpp"

namespace paradise::system {

/// ABCI as ParaDL's code models it (docs/cost-model.md §abci); `plx_cable_latency_s`
/// is 20 us in the released code and the ranking logs, 15 us in the HPDC'20 version.
System abci(double plx_cable_latency_s = 20e-6);

/// abci, abci-plx15, dgx1-v100, dgx-a100, dgx-h100, dgx-h200.
const std::vector<System>& builtin_systems();

/// A built-in name or the path of a system file; throws InputError listing the names.
System find_system(std::string_view name_or_path);

System parse_system_file(std::istream& in, const std::string& file_name);

/// The system-file key of a class's e_max at a precision index: efficiency_max_conv2d_tf32.
std::string efficiency_key(GemmClass k, std::size_t precision);
/// The system-file key of a grouped convolution's attainment: attainment_depthwise_tf32.
std::string attainment_key(GroupedConv k, std::size_t precision);

}  // namespace paradise::system
