// Whether a file is a finished output of `paradise sweep` (docs/output-format.md): what a
// sweep may replace at -o (issue 35: an HDF5 file of someone else's is never replaced).
#pragma once

#include <string>

namespace paradise::io {

/// "" if `path` is an HDF5 file whose root attributes say it is a finished sweep output
/// (`complete` = "true" and a `title` "ParaDiSE sweep ..."); else why not (of a file with
/// the HDF5 signature): "cannot be opened (CAUSE)", "an HDF5 file without the root attributes ...".
/// Serial and read-only; call it on one rank or every rank alike.
std::string why_not_sweep_output(const std::string& path);

}  // namespace paradise::io
