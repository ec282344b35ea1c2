// Built-in implementation profiles and implementation files (*.impl, INI; format in
// docs/implementations.md).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/implementation/profile.hpp"

namespace paradise::implementation {

/// pytorch-nccl (the default), tensorflow-horovod, mxnet-horovod, chainermnx, mpi-host-staged.
const std::vector<Implementation>& builtin_implementations();

/// The built-ins' names, comma-separated, the default first (for help texts and errors).
std::string builtin_implementation_names();

/// A built-in name or the path of an implementation file; throws InputError listing the names.
Implementation find_implementation(std::string_view name_or_path);

/// Reads an implementation file; errors name the file, line, key and value.
Implementation parse_implementation_file(std::istream& in, const std::string& file_name);

/// The file that parse_implementation_file reads back to `impl` (every key written).
std::string implementation_file_text(const Implementation& impl);

}  // namespace paradise::implementation
