// The engine's run: the output opened (or reopened and read back), the chunk loop with its
// agreements on checkpoints and stops, the memory-limit searches, the file's groups.
#include <array>
#include <exception>
#include <filesystem>
#include <iostream>
#include <span>

#include "agreement.hpp"
#include "output.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "report.hpp"
#include "stop_signal.hpp"
#include "sweep_run.hpp"

namespace paradise::engine {
namespace {

// One memory-limit entry as a rank sends it: the value and whether that is the top of its
// search (an upward table's lower bound).
struct LimitEntry {
  std::int64_t value = 0, at_end = 0;
};

// Runs `check` on every rank, which all check the same inputs: its InputError propagates on
// rank 0 (main prints it), the others return true (exit code 2, silently).
template <class Check>
bool failed_input(const mpi::Comm& comm, Check&& check) {
  try {
    check();
  } catch (const InputError&) {
    if (comm.is_root()) throw;
    return true;
  }
  return false;
}

// Runs `check` on rank 0 alone (the checks of files that one process creates) and tells
// every rank: its exception propagates on rank 0 (main prints it), the others return true.
template <class Check>
bool failed_on_root(const mpi::Comm& comm, Check&& check) {
  std::exception_ptr error;
  if (comm.is_root()) {
    try {
      check();
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (!comm.allreduce_or(error != nullptr)) return false;
  if (error) std::rethrow_exception(error);
  return true;
}

std::string count(std::uint64_t n) {
  return with_commas(static_cast<std::int64_t>(n));
}

}  // namespace

int SweepRun::run() {
  if (failed_input(comm_, [&] { size_output(); })) return 2;
  if (failed_input(comm_, [&] { build(); })) return 2;
  if (!o_.output.empty() && failed_on_root(comm_, [&] { guard_output(); })) return 2;
  plan_chunks();
  if (o_.resume && failed_input(comm_, [&] { resume(); })) return 2;
  // after --resume's checks: a dry run says whether the real one would resume
  if (o_.dry_run) {
    if (comm_.is_root())
      print_dry_run(std::cout, f_.path, f_, *evaluator_, *search_, out_bytes_, searches_);
    return 0;
  }
  // from here a signal waits for the next agreement (the first one is right after the
  // output is opened): once OUT.h5.tmp exists, a stop leaves a checkpoint, even of nothing
  catch_stop_signals();
  if (!o_.output.empty()) open();
  if (store() && o_.resume) read_back();
  evaluate_chunks();
  agree(false, chunks_);  // a signal in the last round, or with nothing left to do
  const Limits limits = out_ ? search_limits() : Limits{};
  merge_on_root(*mine_, comm_, *merged_);
  if (out_) finish(limits);
  return print_summary_on_root();
}

void SweepRun::open() {
  together(comm_, o_.output, out_, [&] {
    const auto report = [this](const std::string& why) {  // one write: ranks may report at once
      std::cerr << ("paradise sweep: error: -o " + o_.output + ": rank " +
                    std::to_string(comm_.rank()) + ": " + why + "\n");
    };
    out_.emplace(open_output(o_.output, f_, o_.command_line, comm_, *evaluator_, reduction_,
                             o_.resume, unit_chunk_,
                             {o_.io_timeout_s, report, &OutputLock::release_held}));
  });
}

// A resume keeps the checkpointed chunks: each rank first reads its share of them back
// (every rank the same number of collective rounds), so that a file damaged since (bytes
// written into OUT.h5.tmp, a disk error) is not completed around values h5py cannot read.
void SweepRun::read_back() {
  const std::uint64_t n = static_cast<std::uint64_t>(comm_.size());
  for (std::uint64_t round = 0; round < (first_chunk_ + n - 1) / n; ++round) {
    const std::uint64_t chunk = round * n + static_cast<std::uint64_t>(comm_.rank());
    const auto range = chunk < first_chunk_ ? (*ranges_)[chunk] : (*ranges_)[chunks_];
    together(comm_, o_.output, out_,
             [&] { out_->check_readable(range.first, range.second - range.first); });
  }
}

void SweepRun::evaluate_chunks() {
  t0_ = last_report_ = last_checkpoint_ = Clock::now();
  const std::uint64_t ranks = static_cast<std::uint64_t>(comm_.size());
  const std::uint64_t rounds = (chunks_ - first_chunk_ + ranks - 1) / ranks;
  MapBuffers buf(f_.storage, sweep::searched_shapes(f_.spec));
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t chunk =
        first_chunk_ + round * ranks + static_cast<std::uint64_t>(comm_.rank());
    buf.clear();
    evaluate_chunk(chunk, buf);
    if (store()) timed([&] { buf.write(*out_, (*ranges_)[chunk].first); });
    // a checkpoint when rank 0's clock says so
    agree(comm_.is_root() && out_ && o_.checkpoint_s > 0 && round + 1 < rounds &&
              Clock::now() - last_checkpoint_ > std::chrono::duration<double>(o_.checkpoint_s),
          std::min(chunks_, first_chunk_ + (round + 1) * ranks));
    if (!o_.quiet && comm_.is_root() && Clock::now() - last_report_ > std::chrono::seconds(1))
      report_progress_after(round);
  }
}

void SweepRun::evaluate_chunk(std::uint64_t chunk, MapBuffers& buf) {
  const auto [begin, end] = (*ranges_)[chunk];
  const bool keep = store();
  const sweep::Evaluator& e = *evaluator_;
  sweep::Summary& mine = *mine_;
  for (std::uint64_t u = begin; u < end; ++u) {
    if (reduction_) {
      sweep::CellResult cell;
      reduction_->for_each_point(u, [&](std::uint64_t i) {
        const auto r = e.evaluate(i);
        mine.add(i, r);
        cell.add(r);
      });
      if (keep) buf.add(cell);
    } else {
      const auto r = e.evaluate(u);
      mine.add(u, r);
      if (keep) buf.add(r);
    }
  }
}

void SweepRun::report_progress_after(std::uint64_t round) {
  last_report_ = Clock::now();
  const std::uint64_t ranks = static_cast<std::uint64_t>(comm_.size());
  const auto points = [&](std::uint64_t units) {
    return static_cast<double>(units) * static_cast<double>(per_unit_);
  };
  report_progress(
      std::cerr, std::chrono::duration<double>(last_report_ - t0_).count(),
      points(done_before(first_chunk_ + (round + 1) * ranks) - done_before(first_chunk_)),
      points(units_ - done_before(first_chunk_)));
}

// Agrees on a checkpoint (due: rank 0's clock) and a stop (SIGINT or SIGTERM on any rank);
// on either, the first `done` chunks are checkpointed; a stop then ends the run.
void SweepRun::agree(bool due, std::uint64_t done) {
  std::array<std::uint64_t, 2> agreed{due, static_cast<std::uint64_t>(stop_signal())};
  comm_.allreduce_max(std::span<std::uint64_t>(agreed));
  if ((agreed[0] != 0 || agreed[1] != 0) && out_) checkpoint(done);
  if (agreed[1] != 0) stop(static_cast<int>(agreed[1]), done);
}

void SweepRun::checkpoint(std::uint64_t done) {
  sweep::Summary snapshot = *merged_;
  merge_on_root(*mine_, comm_, snapshot);
  timed([&] {
    out_->flush();
    if (comm_.is_root())
      write_checkpoint(o_.output, {f_.text, layout_ + "\n" + inputs_, done, snapshot.to_bytes()});
  });
  last_checkpoint_ = Clock::now();
}

void SweepRun::stop(int signal, std::uint64_t done) {
  if (comm_.is_root()) {
    std::cerr << (last_report_ != t0_ ? "\n" : "") << "paradise sweep: stopped by "
              << signal_name(signal) << " after "
              << count((done_before(done) - done_before(0)) * per_unit_) << " of "
              << count(units_ * per_unit_) << " points"
              << (done == chunks_ ? " (before the memory-limit searches and Pareto fronts)" : "");
    if (out_)
      std::cerr << "; they are kept in " << o_.output << ".tmp and " << checkpoint_path(o_.output)
                << ": run the same command with --resume to go on\n";
    else
      std::cerr << "; nothing was written (no -o)\n";
  }
  if (out_) out_->abandon();  // flushed: the file stays for --resume
  comm_.barrier();
  OutputLock::release_held();
  mpi::Environment::leave_now(128 + signal);
}

// Memory-limit searches: entries dealt round-robin, gathered on rank 0. They are not
// checkpointed (done again on a resume): a signal ends this rank's share of a table at once,
// and the ranks then agree on the stop.
Limits SweepRun::search_limits() {
  Limits limits;
  const std::uint64_t ranks = static_cast<std::uint64_t>(comm_.size());
  const auto& tables = search_->tables();
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const std::uint64_t n = tables[t].entries;
    std::vector<LimitEntry> part;
    for (std::uint64_t i = static_cast<std::uint64_t>(comm_.rank()); i < n; i += ranks) {
      if (part.size() % 256 == 0 && stop_signal() != 0) break;
      const std::int64_t v = search_->value(t, i);
      part.push_back({v, tables[t].upward && search_->at_search_end(t, i, v) ? 1 : 0});
    }
    agree(false, chunks_);
    const auto all = comm_.gatherv_per_rank(std::span<const LimitEntry>(part));
    std::vector<std::int64_t> values(comm_.is_root() ? n : 0);
    std::vector<std::int64_t> ends(values.size());
    for (std::uint64_t r = 0; r < all.size(); ++r) {
      for (std::uint64_t k = 0; k < all[r].size() && r + k * ranks < n; ++k) {
        values[r + k * ranks] = all[r][k].value;
        ends[r + k * ranks] = all[r][k].at_end;
      }
    }
    limits.values.push_back(std::move(values));
    limits.at_end.push_back(tables[t].upward ? std::move(ends) : std::vector<std::int64_t>{});
  }
  return limits;
}

void SweepRun::finish(const Limits& limits) {
  timed([&] {
    write_pareto(*out_, *merged_, comm_, *evaluator_, sweep::searched_shapes(f_.spec));
    write_systems(*out_, *evaluator_);
    write_memlimit(*out_, search_->tables(), limits.values, limits.at_end);
    out_->commit();
    if (comm_.is_root()) remove_checkpoint(o_.output);
  });
}

int SweepRun::print_summary_on_root() {
  RunStats run{
      comm_.size(),
      std::chrono::duration<double>(Clock::now() - t0_).count(),
      write_s_,
      out_ ? out_->copy_seconds() : 0,
      0,
      peak_rss_bytes(),
      static_cast<double>(units_ - done_before(first_chunk_)) * static_cast<double>(per_unit_)};
  comm_.allreduce_max(std::span<double>(&run.peak_rss_bytes, 1));
  if (!comm_.is_root()) return 0;
  if (out_) run.output_bytes = static_cast<double>(std::filesystem::file_size(o_.output));
  if (!o_.quiet && run.seconds > 1) std::cerr << '\n';
  print_summary(std::cout, f_.path, o_.output, f_, *evaluator_, *merged_, run);
  return 0;
}

void SweepRun::timed(const std::function<void()>& step) {
  const auto w0 = Clock::now();
  together(comm_, o_.output, out_, step);
  write_s_ += std::chrono::duration<double>(Clock::now() - w0).count();
}

int run_sweep(const SweepFile& f, const SweepOptions& o, const mpi::Comm& comm) {
  return SweepRun(f, o, comm).run();
}

}  // namespace paradise::engine
