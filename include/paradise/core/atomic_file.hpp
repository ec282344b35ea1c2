// A file written whole or not at all: the content goes to an exclusive temporary beside
// the target, is flushed to the disk, then renamed over it (POSIX rename(2) replaces the
// target atomically), so a failed write (a full disk) leaves the old file as it was.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace paradise {

/// Writes all of `bytes` to the open file `fd`; false with errno set when a write fails.
using WriteBytes = std::function<bool(int fd, std::string_view bytes)>;

/// The write(2) loop that WriteBytes stands for outside the tests.
bool write_all(int fd, std::string_view bytes);

/// Replaces the file at `path` with `content`, or leaves it untouched: the temporary
/// PATH.tmp.XXXXXX (created with O_EXCL, never through a link) is written, fsync'ed and
/// renamed over `path`, and removed on any failure. A device or FIFO at `path` (-o
/// /dev/stdout) is written in place: it cannot be replaced. A new file gets the mode
/// 0666 less the umask, a replaced one keeps its mode. Throws InputError
/// "<label> 'PATH': cannot write the file: <the OS cause>".
void write_file_atomically(const std::string& path, std::string_view content,
                           const std::string& label, const WriteBytes& write_bytes = write_all);

}  // namespace paradise
