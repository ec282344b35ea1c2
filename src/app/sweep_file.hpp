// Reading sweep files (INI) with Boost.Program_options; errors name file, line, key, value.
#pragma once

#include <string>

#include "paradise/engine/sweep_request.hpp"

namespace paradise::app {

using engine::Storage;
using engine::SweepFile;

SweepFile read_sweep_file(const std::string& path);

}  // namespace paradise::app
