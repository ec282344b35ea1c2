#include "paradise/core/path.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"

namespace paradise {

std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t max_bytes) {
  const auto too_large = [&] {
    const bool mib = max_bytes % (1u << 20) == 0;
    return InputError(path + ": more than " + with_commas(static_cast<std::int64_t>(max_bytes)) +
                      " bytes" + (mib ? " (" + std::to_string(max_bytes >> 20) + " MiB)" : "") +
                      ", not a " + what);
  };
  std::error_code ec;
  if (const auto n = std::filesystem::file_size(path, ec); !ec && n > max_bytes)
    throw too_large();  // a regular file: known without reading it
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the " + what + ": " + std::strerror(errno));
  std::string text;
  std::array<char, 65536> block{};
  while (in.read(block.data(), block.size()) || in.gcount() > 0) {
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) throw too_large();
  }
  if (in.bad()) throw InputError(path + ": cannot read the " + what + ": " + std::strerror(errno));
  // every input is text: a NUL byte means a binary file (or UTF-16), whose "lines" the
  // parsers would quote in their errors
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    throw InputError(path + ":" + std::to_string(line) + ": a NUL byte (byte " +
                     with_commas(static_cast<std::int64_t>(nul) + 1) + "): not a " + what +
                     " (binary; UTF-16 text: save it as UTF-8; NUL padding left by a crash: "
                     "tr -d '\\000')");
  }
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  return text;
}

bool has_hdf5_signature(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  constexpr std::string_view kSignature("\x89HDF\r\n\x1a\n", 8);
  std::array<char, 8> head{};
  for (std::uint64_t at = 0; in; at = at == 0 ? 512 : at * 2) {
    in.seekg(static_cast<std::streamoff>(at));
    if (!in.read(head.data(), head.size())) return false;
    if (std::string_view(head.data(), head.size()) == kSignature) return true;
  }
  return false;
}

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
