// What a path names, asked without throwing: std::filesystem's status() throws when a
// directory on the way may not be searched (EACCES), which must be an input error instead.
#pragma once

#include <string>

namespace paradise {

/// `special`: a device, pipe or socket (readable, e.g. /dev/fd/N; never to be replaced).
enum class PathKind { file, directory, special, missing, unreachable };

struct PathStatus {
  PathKind kind = PathKind::missing;
  std::string why;  ///< for unreachable: the system's reason ("Permission denied")
};

/// The kind of `path`; a name too long for a path is missing.
PathStatus path_status(const std::string& path);

/// Why a new file cannot be written at `path` ("" if it can): it is a directory, its
/// directory does not exist or may not be written, or the file is read-only.
std::string why_unwritable(const std::string& path);

}  // namespace paradise
