#include "paradise/core/path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"

namespace paradise {
namespace {

// "a system file", "an implementation file": the article a file kind takes.
std::string with_article(const std::string& what) {
  const bool vowel =
      !what.empty() && std::string_view("aeiouAEIOU").find(what[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + what;
}

}  // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t max_bytes) {
  const auto too_large = [&] {
    const bool mib = max_bytes % (1u << 20) == 0;
    return InputError(path + ": more than " + with_commas(static_cast<std::int64_t>(max_bytes)) +
                      " bytes" + (mib ? " (" + std::to_string(max_bytes >> 20) + " MiB)" : "") +
                      ", not " + with_article(what));
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
                     with_commas(static_cast<std::int64_t>(nul) + 1) + "): not " +
                     with_article(what) +
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

EntryStatus entry_status(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG) return {};
    return {EntryKind::unreachable, std::strerror(errno)};
  }
  if (S_ISLNK(st.st_mode)) return {EntryKind::link, ""};
  if (S_ISDIR(st.st_mode)) return {EntryKind::directory, ""};
  if (S_ISREG(st.st_mode)) return {EntryKind::file, ""};
  return {EntryKind::special, ""};
}

void write_new_file(const std::string& path, std::string_view bytes) {
  // O_EXCL with O_CREAT fails on any name already there, a symbolic link included (POSIX
  // open()): the bytes never reach another file
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(path + ": cannot create (" + std::strerror(errno) + ")");
  std::size_t done = 0;
  int error = 0;
  while (done < bytes.size() && error == 0) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(path.c_str());
    throw InputError(path + ": cannot write (" + std::strerror(error) + ")");
  }
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

std::optional<std::string> read_definition_file(const std::string& value, const std::string& what,
                                                std::string_view extension) {
  const PathStatus at = path_status(value);
  if (at.kind == PathKind::file || at.kind == PathKind::special)
    return read_input_file(value, what);
  if (at.kind == PathKind::directory)
    throw InputError(value + ": is a directory, not " + with_article(what));
  if (at.kind == PathKind::unreachable)
    throw InputError(value + ": cannot open " + what + " (" + at.why + ")");
  // a path (a '/', or the extension) that is not there: say so, not "unknown"
  if (value.find('/') != std::string::npos || value.ends_with(extension))
    throw InputError(value + ": no such " + what);
  return std::nullopt;
}

}  // namespace paradise
