// The exclusive lock of a sweep's output: OUT.h5.lock, held with flock(2) by the one sweep
// that writes OUT.h5 and its side files, so that a second sweep on the same -o is refused
// before any work (issue 35). The kernel releases it when the process ends, even by a kill:
// a lock file left behind blocks nobody.
#pragma once

#include <string>

namespace paradise::engine {

/// OUT's lock file.
std::string lock_path(const std::string& output);

class OutputLock {
 public:
  /// Takes the lock of `output` (creating OUT.lock, never through a symbolic link);
  /// InputError naming the holder if another process holds it, or the cause.
  explicit OutputLock(const std::string& output);
  /// Removes the lock file while still holding it, then releases it.
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  /// Removes and releases the lock this process holds, if any: before a failed or stopped
  /// run leaves without unwinding (mpi::Environment::leave_now).
  static void release_held() noexcept;

  /// InputError as the constructor's if another process holds the lock now; creates nothing
  /// (a dry run's check).
  static void check_free(const std::string& output);

 private:
  std::string output_, path_;
  int fd_ = -1;
  static OutputLock* held_;  ///< the lock this process holds (one sweep per process)
};

}  // namespace paradise::engine
