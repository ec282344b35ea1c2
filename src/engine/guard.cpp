#include "guard.hpp"

#include <filesystem>
#include <sstream>

#include "checkpoint.hpp"
#include "output_lock.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/io/sweep_output.hpp"

namespace paradise::engine {

std::vector<std::string> input_files(const SweepFile& f) {
  std::vector<std::string> files(f.spec.models.begin(), f.spec.models.end());
  files.insert(files.end(), f.spec.systems.begin(), f.spec.systems.end());
  for (const auto& [key, path] : f.spec.layer_times) files.push_back(path);
  return files;
}

void refuse_replacing(const std::string& output, const SweepFile& f) {
  // as the writer will (a directory, a missing or read-only folder), before any work and in
  // a dry run too: jobs/submit checks an output with one before the queue wait
  if (const std::string why = why_unwritable(output); !why.empty())
    throw InputError("-o " + output + ": cannot write the file (" + why + ")");
  for (const auto& in : input_files(f)) {
    std::error_code ec;
    if (std::filesystem::equivalent(in, output, ec)) {
      std::string message = "-o ";
      message.append(output).append(": is ").append(in);
      throw InputError(message + ", a file the sweep reads (it would be overwritten)");
    }
  }
  std::error_code ec;
  if (path_status(output).kind != PathKind::file || std::filesystem::file_size(output, ec) == 0 ||
      ec)
    return;
  if (!has_hdf5_signature(output))
    throw InputError("-o " + output + ": exists and is not an HDF5 file (it would be replaced): " +
                     "remove it first, or write elsewhere");
  if (const std::string why = io::why_not_sweep_output(output); !why.empty())
    throw InputError("-o " + output + ": exists and is no finished output of paradise sweep (" +
                     why + "; it would be replaced): remove it first, or write elsewhere");
}

std::vector<std::string> side_paths(const std::string& output) {
  return {output + ".tmp", output + ".tmp.canonical", checkpoint_path(output),
          checkpoint_path(output) + ".tmp", lock_path(output)};
}

void refuse_side_paths(const std::string& output) {
  for (const auto& path : side_paths(output)) {
    const EntryStatus at = entry_status(path);
    const std::string in_the_way =
        std::string("-o ").append(output).append(": ").append(path).append(" is in the way (");
    switch (at.kind) {
      case EntryKind::missing:
      case EntryKind::file:
        break;
      case EntryKind::link:
        throw InputError(in_the_way + "a symbolic link, never followed): remove it");
      case EntryKind::directory:
        throw InputError(in_the_way + "a directory): remove it, or write elsewhere");
      case EntryKind::special:
        throw InputError(in_the_way + "not a regular file): remove it, or write elsewhere");
      case EntryKind::unreachable:
        throw InputError(std::string("-o ").append(output).append(": ").append(path) + ": " +
                         at.why);
    }
  }
}

void refuse_interrupted(const std::string& output, bool resume) {
  const std::string tmp = output + ".tmp", resume_at = checkpoint_path(output);
  if (!resume && entry_status(tmp).kind == EntryKind::file &&
      entry_status(resume_at).kind == EntryKind::file)
    throw InputError("-o " + output + ": " + tmp + " holds an interrupted sweep, checkpointed in " +
                     resume_at + ": add --resume to go on, or remove both files to start over");
}

std::string first_difference(const std::string& was, const std::string& now,
                             const std::string& file) {
  std::istringstream a(was), b(now);
  std::string x, y;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, x));
    const bool more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return file + ": the same lines, other line endings";
    if (!more_a) x = "(end of file)";
    if (!more_b) y = "(end of file)";
    if (x != y || !more_a || !more_b) {
      std::string where = file;
      where.append(":").append(std::to_string(line)).append(" now '").append(y);
      return where.append("', was '").append(x).append("'");
    }
  }
}

}  // namespace paradise::engine
