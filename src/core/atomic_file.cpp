#include "paradise/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise {
namespace {

[[noreturn]] void fail(const std::string& label, const std::string& path, int cause) {
  throw InputError(label + " '" + path + "': cannot write the file: " + std::strerror(cause));
}

// The mode a new file of this process gets: 0666 less the umask (umask(2) reads it only by
// setting it, so it is set back at once).
mode_t new_file_mode() {
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return 0666 & ~mask;
}

// A device or FIFO takes the bytes in place (-o /dev/stdout): it cannot be replaced.
void write_in_place(const std::string& path, std::string_view content, const std::string& label,
                    const WriteBytes& write_bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(label, path, errno);
  const bool written = write_bytes(fd, content);
  const int cause = errno;
  if (::close(fd) != 0 && written) fail(label, path, errno);
  if (!written) fail(label, path, cause);
}

}  // namespace

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void write_file_atomically(const std::string& path, std::string_view content,
                           const std::string& label, const WriteBytes& write_bytes) {
  struct stat old {};
  const bool exists = ::stat(path.c_str(), &old) == 0;
  if (exists && S_ISDIR(old.st_mode)) fail(label, path, EISDIR);
  if (exists && !S_ISREG(old.st_mode)) return write_in_place(path, content, label, write_bytes);
  // mkstemp opens with O_CREAT | O_EXCL (POSIX): never an existing file, nor through a link
  std::string temp_name = path + ".tmp.XXXXXX";
  std::vector<char> name(temp_name.begin(), temp_name.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(label, path, errno);
  temp_name = name.data();
  const mode_t mode = exists ? (old.st_mode & 07777) : new_file_mode();
  const bool ok = ::fchmod(fd, mode) == 0 && write_bytes(fd, content) && ::fsync(fd) == 0;
  const int cause = errno;
  const bool closed = ::close(fd) == 0;
  if (!ok || !closed || std::rename(temp_name.c_str(), path.c_str()) != 0) {
    const int why = !ok ? cause : errno;
    std::remove(temp_name.c_str());
    fail(label, path, why);
  }
}

}  // namespace paradise
