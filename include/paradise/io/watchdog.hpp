// A timer on a thread of its own, for what a rank's thread cannot time itself: it is blocked
// inside a collective call, or waiting for the ranks to agree.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace paradise::io {

/// Runs `on_late` once, on its own thread, unless destroyed within `seconds`.
class Watchdog {
 public:
  Watchdog(double seconds, std::function<void()> on_late) : on_late_(std::move(on_late)) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_.wait_for(lock, std::chrono::duration<double>(seconds),
                          [this] { return disarmed_; }))
        on_late_();
    });
  }
  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      disarmed_ = true;
    }
    done_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::function<void()> on_late_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace paradise::io
