#include "paradise/core/path.hpp"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace paradise {

PathStatus path_status(const std::string& path) {
  std::error_code ec;
  const auto s = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::filename_too_long &&
      ec != std::errc::not_a_directory)
    return {PathKind::unreachable, ec.message()};
  if (std::filesystem::is_directory(s)) return {PathKind::directory, ""};
  if (std::filesystem::is_regular_file(s)) return {PathKind::file, ""};
  if (std::filesystem::exists(s)) return {PathKind::special, ""};
  return {PathKind::missing, ""};
}

std::string why_unwritable(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  const PathStatus target = path_status(path), parent = path_status(dir);
  if (target.kind == PathKind::directory) return "a directory";
  if (target.kind == PathKind::special) return "not a regular file: it would be replaced";
  if (parent.kind == PathKind::unreachable) return dir + ": " + parent.why;
  if (target.kind == PathKind::unreachable) return target.why;
  if (parent.kind != PathKind::directory) return "no directory " + dir;
  if (::access(dir.c_str(), W_OK) != 0 ||
      (target.kind == PathKind::file && ::access(path.c_str(), W_OK) != 0))
    return "no permission to write there";
  return "";
}

}  // namespace paradise
