#include "stop_signal.hpp"

#include <csignal>
#include <cstring>

namespace paradise::app {
namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop(int signal) {
  if (g_stop != 0) {  // the second time: no waiting for the chunk boundary
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_stop = signal;
}

}  // namespace

void catch_stop_signals() {
  struct sigaction a;
  std::memset(&a, 0, sizeof a);
  a.sa_handler = on_stop;
  sigemptyset(&a.sa_mask);
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

}  // namespace paradise::app
