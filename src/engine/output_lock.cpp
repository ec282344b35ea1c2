#include "output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"

namespace paradise::engine {
namespace {

// O_NOFOLLOW: a symbolic link there fails (ELOOP); O_NONBLOCK: a FIFO does not block the open
constexpr int kOpenFlags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;

InputError cannot(const std::string& path, const std::string& why) {
  return InputError(path + ": cannot lock the output (" + why + ")");
}

// What the holder wrote into the lock file: "pid N on HOST since TIME".
std::string holder_of(int fd) {
  std::array<char, 256> text{};
  const ssize_t n = ::pread(fd, text.data(), text.size() - 1, 0);
  std::string holder(text.data(), n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!holder.empty() && holder.back() == '\n') holder.pop_back();
  return holder.empty() ? "another process" : printable(holder);
}

// Takes the lock on an open lock file, or throws the refusal naming its holder.
void lock_or_refuse(int fd, const std::string& output, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw cannot(path, "not a regular file: remove it");
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
  const int error = errno;
  const std::string holder = error == EWOULDBLOCK ? holder_of(fd) : "";
  ::close(fd);
  if (error != EWOULDBLOCK) throw cannot(path, std::strerror(error));
  throw InputError("-o " + output + ": another sweep is writing it (" + path + " is held by " +
                   holder + "): wait for it to end, or write elsewhere");
}

std::string open_error(int error) {
  return error == ELOOP ? "a symbolic link is in its place, never followed: remove it"
                        : std::strerror(error);
}

}  // namespace

OutputLock* OutputLock::held_ = nullptr;

std::string lock_path(const std::string& output) {
  return output + ".lock";
}

OutputLock::OutputLock(const std::string& output) : output_(output), path_(lock_path(output)) {
  // a holder removes the file at its end while holding it: the file locked must be the one
  // still at the path, or the next one is taken (a few tries; a race is rare)
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | kOpenFlags, 0644);
    if (fd < 0) throw cannot(path_, open_error(errno));
    lock_or_refuse(fd, output_, path_);
    struct stat held {
    }, there{};
    if (::fstat(fd, &held) == 0 && ::lstat(path_.c_str(), &there) == 0 &&
        held.st_dev == there.st_dev && held.st_ino == there.st_ino) {
      fd_ = fd;
      break;
    }
    ::close(fd);
  }
  if (fd_ < 0) throw cannot(path_, "its file kept being replaced");
  held_ = this;
  std::array<char, 256> host{};
  ::gethostname(host.data(), host.size() - 1);
  char since[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  const std::string holder =
      "pid " + std::to_string(::getpid()) + " on " + host.data() + " since " + since + "\n";
  // what it says is for people only: a failed write leaves the lock held all the same
  if (::ftruncate(fd_, 0) == 0 &&
      ::pwrite(fd_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size()))
    ::ftruncate(fd_, 0);
}

OutputLock::~OutputLock() {
  if (held_ == this) held_ = nullptr;
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(fd_);
}

void OutputLock::release_held() noexcept {
  if (held_ == nullptr || held_->fd_ < 0) return;
  ::unlink(held_->path_.c_str());
  ::close(std::exchange(held_->fd_, -1));
  held_ = nullptr;
}

void OutputLock::check_free(const std::string& output) {
  const std::string path = lock_path(output);
  const int fd = ::open(path.c_str(), O_RDONLY | kOpenFlags);
  if (fd < 0) {
    if (errno == ENOENT) return;
    throw cannot(path, open_error(errno));
  }
  lock_or_refuse(fd, output, path);
  ::close(fd);  // releases the lock just taken
}

}  // namespace paradise::engine
