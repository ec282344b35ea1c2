// SIGINT and SIGTERM (Ctrl-C, scancel, a batch system's walltime or preemption warning) ask
// a sweep to stop at its next chunk boundary, where it checkpoints; another one 2 s or more
// later ends the process at once (the default action).
#pragma once

namespace paradise::engine {

/// Installs the handlers (idempotent).
void catch_stop_signals();
/// The signal that asked for a stop, 0 if none.
int stop_signal();
/// "SIGINT", "SIGTERM", else "a signal".
const char* signal_name(int signal);

}  // namespace paradise::engine
