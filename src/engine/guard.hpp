// Checks of a sweep's output path and of a checkpoint against the sweep it would resume.
#pragma once

#include <string>
#include <vector>

#include "paradise/engine/sweep_request.hpp"

namespace paradise::engine {

/// The files a sweep reads besides the sweep file: model, system and layer-times files (a
/// built-in name is no file).
std::vector<std::string> input_files(const SweepFile& f);

/// InputError unless `output` may be replaced at the end: writable, never a file the sweep
/// reads, nor a file that is no earlier output (an empty one aside: mktemp's), such as a
/// program or a model file.
void refuse_replacing(const std::string& output, const SweepFile& f);

/// The files written beside `output`: OUT.tmp, its canonical copy OUT.tmp.canonical, the
/// checkpoint OUT.resume and its OUT.resume.tmp, the lock OUT.lock.
std::vector<std::string> side_paths(const std::string& output);

/// InputError naming the first side path in the way, before any work: a symbolic link (never
/// followed), a directory (never deleted), anything but a regular file.
void refuse_side_paths(const std::string& output);

/// InputError, without `resume`, for an OUT.tmp checkpointed in OUT.resume: the data of an
/// interrupted sweep (a leftover without a checkpoint is replaced). Ask it under the lock.
void refuse_interrupted(const std::string& output, bool resume);

/// Where the checkpointed sweep file's text and this one's part: "FILE:N now 'x', was 'y'".
std::string first_difference(const std::string& was, const std::string& now,
                             const std::string& file);

}  // namespace paradise::engine
