// Shared Boost.Program_options helpers of the CLI.
#pragma once

#include <boost/program_options.hpp>

#include "commands.hpp"

namespace paradise::app {

/// Adds --help, parses `args`; prints help and returns false when asked for it.
bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis);

}  // namespace paradise::app
