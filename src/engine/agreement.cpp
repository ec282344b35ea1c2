#include "agreement.hpp"

#include <iostream>
#include <optional>
#include <span>
#include <vector>

#include "checkpoint.hpp"
#include "output_lock.hpp"
#include "paradise/core/text.hpp"
#include "paradise/io/watchdog.hpp"

namespace paradise::engine {
namespace {

// A rank's outcome, first byte: 'E' its own failure, 'D' an unreadable value, 'P' a peer's
// failure; empty: none.
std::string outcome_of(const std::function<void()>& step) {
  try {
    step();
  } catch (const io::UnreadableError& e) {
    return std::string("D") + e.what();
  } catch (const io::PeerError& e) {
    return std::string("P") + e.what();
  } catch (const std::exception& e) {
    return std::string("E") + e.what();
  }
  return "";
}

// Rank 0: the first rank's own failure (or a peer's, if none) and what is left to the user.
void report_failure(const std::vector<std::vector<char>>& outcomes, const std::string& output,
                    bool kept) {
  std::string message, fallback;
  bool damaged = false;
  for (const auto& o : outcomes) {
    const std::string m(o.begin(), o.end());
    if (m.starts_with("E") || m.starts_with("D")) {
      message = m.substr(1);
      damaged = m.starts_with("D");
      break;
    }
    if (m.starts_with("P") && fallback.empty()) fallback = m.substr(1);
  }
  std::cerr << printable("paradise sweep: error: -o " + output + ": " +
                         (message.empty() ? fallback : message))
            << '\n';
  if (damaged)
    std::cerr << printable("paradise sweep: " + output +
                           ".tmp was damaged after its last checkpoint, unless the read failed "
                           "for a passing I/O error: remove it and " +
                           checkpoint_path(output) +
                           ", then rerun without --resume, which starts over")
              << '\n';
  else if (kept)
    std::cerr << "paradise sweep: the last checkpoint stays in " << output << ".tmp and "
              << checkpoint_path(output) << ": fix the cause and rerun with --resume\n";
}

}  // namespace

void together(const mpi::Comm& comm, const std::string& output,
              std::optional<io::SweepFileWriter>& out, const std::function<void()>& step) {
  const std::string error = outcome_of(step);
  std::optional<io::Watchdog> tell;  // this rank's own failure, said at once if the agreement
  if (error.starts_with("E") && comm.size() > 1) {  // waits: a peer may be stuck (issue 35)
    tell.emplace(1.0, [&] {
      std::cerr << printable("paradise sweep: error: -o " + output + ": rank " +
                             std::to_string(comm.rank()) + ": " + error.substr(1) +
                             " (said now: the other ranks have not yet agreed on it)") +
                       "\n";
    });
  }
  const bool failed = comm.allreduce_or(!error.empty());
  tell.reset();
  if (!failed) return;
  if (out) out->close_after_failed_read();  // a damaged resume: the file closes cleanly
  const bool kept = out && out->abandon();
  const auto outcomes = comm.gatherv_per_rank(std::span<const char>(error));
  if (comm.is_root()) report_failure(outcomes, output, kept);
  OutputLock::release_held();  // the run leaves without unwinding: its lock file goes now
  // no file open (the writer was never made, its constructor failed, commit closed the file
  // before its canonical copy failed, or a resume's read-back failed and it was closed):
  // MPI_Finalize is safe, and mpiexec then reliably says 2 (after leave_now a peer could be
  // killed first and mpiexec say its signal)
  if ((!out || out->closed()) && !io::files_left_open()) mpi::Environment::finalize_and_leave(2);
  comm.barrier();
  mpi::Environment::leave_now(2);
}

void merge_on_root(sweep::Summary& mine, const mpi::Comm& comm, sweep::Summary& into) {
  const auto bytes = mine.to_bytes();
  const auto all = comm.gatherv_per_rank(std::span<const std::uint8_t>(bytes));
  for (const auto& part : all) into.merge(part);
}

}  // namespace paradise::engine
