// Shared Boost.Program_options helpers of the CLI.
#pragma once

#include <boost/program_options.hpp>

#include "commands.hpp"

namespace paradise::app {

/// Adds --help, parses `args`; prints help and returns false when asked for it.
bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis);

/// Adds --spatial-split (w, ParaDL's width-only split, or all spatial dimensions) to `desc`.
void add_spatial_split_option(boost::program_options::options_description& desc, std::string& text);
/// Whether --spatial-split's `text` asks for every spatial dimension; InputError naming the
/// option and value unless w or all.
bool spatial_all_dims(const std::string& text);

}  // namespace paradise::app
