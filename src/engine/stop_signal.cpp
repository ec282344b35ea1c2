#include "stop_signal.hpp"

#include <time.h>

#include <csignal>
#include <cstring>

namespace paradise::engine {
namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_first_ds = 0;  // CLOCK_MONOTONIC tenths of a second, 1st signal

int monotonic_ds() {  // clock_gettime is async-signal-safe (POSIX.1-2008 §2.4.3)
  struct timespec t {};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int>(t.tv_sec * 10 + t.tv_nsec / 100000000);
}

extern "C" void on_stop(int signal) {
  if (g_stop == 0) {
    g_first_ds = monotonic_ds();  // first: g_stop set means the time is there
    g_stop = signal;
    return;
  }
  // The same signal often comes twice at once (a terminal's Ctrl-C reaches mpiexec and the
  // ranks, and mpiexec passes it on; Slurm signals the tasks and srun forwards): only a
  // repeat 2 s or more later means "now", without waiting for the chunk boundary.
  if (monotonic_ds() - g_first_ds >= 20) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

}  // namespace

void catch_stop_signals() {
  struct sigaction a;
  std::memset(&a, 0, sizeof a);
  a.sa_handler = on_stop;
  sigemptyset(&a.sa_mask);  // the other stop signal waits while the handler runs
  sigaddset(&a.sa_mask, SIGINT);
  sigaddset(&a.sa_mask, SIGTERM);
  a.sa_flags = SA_RESTART;  // blocking calls (MPI, file writes) go on after the handler
  sigaction(SIGINT, &a, nullptr);
  sigaction(SIGTERM, &a, nullptr);
}

int stop_signal() {
  return g_stop;
}

const char* signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace paradise::engine
