// `paradise sweep`: evaluate a grid of configurations on MPI ranks, write the HDF5 file,
// print a summary. Work is split into chunks taken round-robin by the ranks; after every
// round the ranks agree on failures (so a full disk ends every rank, not just one) and,
// every --checkpoint seconds, flush the file and record the finished chunks for --resume.
#include <algorithm>
#include <array>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit_tables.hpp"
#include "paradise/sweep/reduction.hpp"
#include "paradise/sweep/summary.hpp"
#include "stop_signal.hpp"
#include "sweep_checkpoint.hpp"
#include "sweep_file.hpp"
#include "sweep_output.hpp"
#include "sweep_report.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kChunk = 65536;  // the most points of a file chunk (chunk_shape)

// One chunk's results, column by column (the maps in the HDF5 file).
struct Buffers {
  std::vector<std::uint8_t> status, limit;
  std::vector<double> memory, iteration, epoch, compute, communication;
  void clear() {
    for (auto* v : {&status, &limit}) v->clear();
    for (auto* v : {&memory, &iteration, &epoch, &compute, &communication}) v->clear();
  }
  void add(const sweep::PointResult& r, bool full) {
    status.push_back(r.status);
    memory.push_back(r.memory_per_gpu_bytes);
    if (!full) return;
    limit.push_back(r.limit);
    iteration.push_back(r.iteration_time_s);
    epoch.push_back(r.epoch_time_s);
    compute.push_back(r.epoch_compute_s);
    communication.push_back(r.epoch_communication_s);
  }
  void add(const sweep::CellResult& c) {
    status.push_back(c.best_status);
    memory.push_back(c.min_memory_per_gpu_bytes);
    epoch.push_back(c.min_epoch_time_s);
  }
  void write(io::SweepFileWriter& out, std::uint64_t begin, const std::string& storage) const {
    if (storage == "summary") {
      out.write("best_status", begin, std::span<const std::uint8_t>(status));
      out.write("min_memory_per_gpu_bytes", begin, std::span<const double>(memory));
      out.write("min_epoch_time_s", begin, std::span<const double>(epoch));
      return;
    }
    out.write("status", begin, std::span<const std::uint8_t>(status));
    out.write("memory_per_gpu_bytes", begin, std::span<const double>(memory));
    if (storage != "full") return;
    out.write("limiting_factor", begin, std::span<const std::uint8_t>(limit));
    out.write("iteration_time_s", begin, std::span<const double>(iteration));
    out.write("epoch_time_s", begin, std::span<const double>(epoch));
    out.write("compute_time_s", begin, std::span<const double>(compute));
    out.write("communication_time_s", begin, std::span<const double>(communication));
  }
};

// Runs `step` on every rank and agrees on its outcome. If it threw anywhere, rank 0 prints
// the first failing rank's own message (a peer's "failed on another rank" only if there is
// nothing better), the output is abandoned (PATH.tmp removed unless it holds a checkpoint)
// and every rank ends with exit code 2: through MPI_Finalize while no file is open, else after
// a barrier without it: parallel HDF5 would close the file there, and its close is not safe
// after a write error (mpiexec's own exit code may then be a signal's: comm.hpp).
// A kept value that does not read back (check_readable) says to start over instead.
template <class Step>
void together(const mpi::Comm& comm, const std::string& output,
              std::optional<io::SweepFileWriter>& out, Step&& step) {
  // first byte: 'E' this rank's own failure, 'D' an unreadable value, 'P' a peer's failure
  std::string error;
  try {
    step();
  } catch (const io::UnreadableError& e) {
    error = std::string("D") + e.what();
  } catch (const io::PeerError& e) {
    error = std::string("P") + e.what();
  } catch (const std::exception& e) {
    error = std::string("E") + e.what();
  }
  if (!comm.allreduce_or(!error.empty())) return;
  if (out) out->close_after_failed_read();  // a damaged resume: the file closes cleanly
  const bool kept = out && out->abandon();
  const auto all =
      comm.gather_bytes({reinterpret_cast<const std::uint8_t*>(error.c_str()), error.size() + 1});
  if (comm.is_root()) {
    std::string message, fallback;
    bool damaged = false;
    for (std::size_t at = 0; at < all.size() && message.empty();) {
      const std::string m(reinterpret_cast<const char*>(all.data() + at));
      at += m.size() + 1;
      if (m.starts_with("E") || m.starts_with("D")) message = m.substr(1);
      damaged = m.starts_with("D");
      if (m.starts_with("P") && fallback.empty()) fallback = m.substr(1);
    }
    std::cerr << printable("paradise sweep: error: -o " + output + ": " +
                           (message.empty() ? fallback : message))
              << '\n';
    if (damaged)
      std::cerr << printable("paradise sweep: " + output +
                             ".tmp was damaged after its last checkpoint, unless the read failed "
                             "for a passing I/O error: rerun without --resume, which starts over")
                << '\n';
    else if (kept)
      std::cerr << "paradise sweep: the last checkpoint stays in " << output << ".tmp and "
                << checkpoint_path(output) << ": fix the cause and rerun with --resume\n";
  }
  // no file open (the writer was never made, its constructor failed, commit closed the file
  // before its canonical copy failed, or a resume's read-back failed and it was closed):
  // MPI_Finalize is safe, and mpiexec then reliably says 2 (after leave_now a peer could be
  // killed first and mpiexec say its signal)
  if (!out || out->closed()) mpi::Environment::finalize_and_leave(2);
  comm.barrier();
  mpi::Environment::leave_now(2);
}

// Where the checkpointed sweep file's text and this one's part: "FILE:N now 'x', was 'y'".
std::string first_difference(const std::string& was, const std::string& now,
                             const std::string& file) {
  std::istringstream a(was), b(now);
  std::string x, y;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, x));
    const bool more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return file + ": the same lines, other line endings";
    if (!more_a) x = "(end of file)";
    if (!more_b) y = "(end of file)";
    if (x != y || !more_a || !more_b)
      return file + ":" + std::to_string(line) + " now '" + y + "', was '" + x + "'";
  }
}

// The files a sweep reads besides the sweep file: model, system and layer-times files (a
// built-in name is no file).
std::vector<std::string> input_files(const SweepFile& f) {
  std::vector<std::string> files(f.spec.models.begin(), f.spec.models.end());
  files.insert(files.end(), f.spec.systems.begin(), f.spec.systems.end());
  for (const auto& [key, path] : f.spec.layer_times) files.push_back(path);
  return files;
}

// The output replaces its path at the end: never a file the sweep reads, nor a file that is
// no earlier output (an empty one aside: mktemp's), such as a program or a model file.
void refuse_replacing(const std::string& output, const SweepFile& f) {
  // as the writer will (a directory, a missing or read-only folder), before any work and in
  // a dry run too: jobs/submit checks an output with one before the queue wait
  if (const std::string why = why_unwritable(output); !why.empty())
    throw InputError("-o " + output + ": cannot write the file (" + why + ")");
  for (const auto& in : input_files(f)) {
    std::error_code ec;
    if (std::filesystem::equivalent(in, output, ec))
      throw InputError("-o " + output + ": is " + in + ", a file the sweep reads (it would be " +
                       "overwritten)");
  }
  std::error_code ec;
  if (path_status(output).kind == PathKind::file && std::filesystem::file_size(output, ec) > 0 &&
      !ec && !has_hdf5_signature(output))
    throw InputError("-o " + output + ": exists and is not an HDF5 file (it would be replaced): " +
                     "remove it first, or write elsewhere");
}

// Every rank's summary bytes merged into rank 0's summary.
void merge_on_root(sweep::Summary& s, const mpi::Comm& comm, sweep::Summary& into) {
  const auto mine = s.to_bytes();
  std::uint64_t n = mine.size();
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(comm.size()), 0);
  const auto all_sizes = comm.gather_bytes({reinterpret_cast<const std::uint8_t*>(&n), sizeof n});
  const auto all = comm.gather_bytes(mine);
  if (!comm.is_root()) return;
  std::size_t at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    std::uint64_t len = 0;
    std::memcpy(&len, all_sizes.data() + static_cast<std::size_t>(r) * sizeof len, sizeof len);
    into.merge(std::span<const std::uint8_t>(all).subspan(at, len));
    at += len;
  }
}

}  // namespace

int run_sweep(const Args& args) {
  po::options_description desc(
      "paradise sweep SWEEP.ini [-o OUT.h5] [--resume] [--dry-run] [--quiet]");
  std::string file, output;
  bool dry_run = false, quiet = false, resume = false;
  double checkpoint_s = 60, io_timeout_s = 300;
  desc.add_options()("sweep-file", po::value(&file)->required(), "the sweep file (INI)")(
      "output,o", po::value(&output), "the HDF5 file to write")(
      "resume", po::bool_switch(&resume),
      "continue an interrupted sweep from OUT.h5.tmp and its checkpoint OUT.h5.resume")(
      "checkpoint", po::value(&checkpoint_s)->default_value(60),
      "seconds between checkpoints of the output (0: none)")(
      "io-timeout", po::value(&io_timeout_s)->default_value(300),
      "seconds the ranks wait for each other after a collective write before the job is "
      "aborted (a rank stuck after an I/O failure elsewhere)")(
      "dry-run", po::bool_switch(&dry_run),
      "print the axes, point count, output size and time; evaluate nothing")(
      "quiet", po::bool_switch(&quiet), "no progress on stderr");
  po::positional_options_description pos;
  pos.add("sweep-file", 1);
  po::variables_map vm;
  desc.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "Evaluates every point of a sweep grid.\n\n" << desc << '\n';
    return 0;
  }
  po::notify(vm);
  if (resume && output.empty())
    throw InputError("--resume needs -o OUT.h5 (the interrupted output)");
  const auto shown = [](double v) {  // as typed, mostly: -1, 0.5, inf (not -1.000000)
    std::ostringstream text;
    text << v;
    return text.str();
  };
  // the ranks need a moment to agree after a write; inf would wait forever on a stuck rank
  if (!(io_timeout_s >= 1) || !std::isfinite(io_timeout_s))
    throw InputError("--io-timeout " + shown(io_timeout_s) + ": must be a number of seconds >= 1");
  if (!(checkpoint_s >= 0) || !std::isfinite(checkpoint_s))
    throw InputError("--checkpoint " + shown(checkpoint_s) + ": must be a number of seconds >= 0");
  if (vm.count("output") && output.empty())
    throw InputError("-o '': expected the path of the output file (OUT.h5)");
  // the output replaces its path at the end: never the sweep file itself
  std::error_code same_error;
  if (!output.empty() && std::filesystem::equivalent(file, output, same_error))
    throw InputError("-o " + output + ": is the sweep file " + file + " (it would be overwritten)");

  const mpi::Environment mpi_environment;
  const auto comm = mpi::Comm::world();
  // Every rank reads and validates the same inputs; only rank 0 reports a bad one.
  std::optional<SweepFile> parsed;
  std::optional<sweep::Evaluator> evaluator;
  std::optional<sweep::Reduction> reduction;
  std::optional<sweep::MemlimitSearch> search;
  std::optional<sweep::Summary> summary;
  try {
    parsed = read_sweep_file(file);
    try {
      evaluator.emplace(parsed->spec);
    } catch (const InputError& e) {  // the grid or its workloads: said of the sweep file
      throw InputError(file + ": " + e.what());
    }
    if (!parsed->reduce.empty()) reduction.emplace(evaluator->grid(), parsed->reduce);
    search.emplace(*evaluator, parsed->memlimit);
    summary.emplace(evaluator->grid(), parsed->pareto);
    if (!output.empty()) refuse_replacing(output, *parsed);
  } catch (const InputError&) {
    if (comm.is_root()) throw;
    return 2;
  }
  const SweepFile& f = *parsed;
  const sweep::Evaluator& e = *evaluator;
  const auto& grid = e.grid();
  const std::uint64_t units = reduction ? reduction->cells() : grid.points();
  const bool maps = f.storage != "summary" || reduction.has_value();
  const double out_bytes = maps ? static_cast<double>(units) * bytes_per_cell(f.storage) : 0;
  std::uint64_t searches = 0, largest_table = 0;
  for (const auto& t : search->tables()) {
    searches += t.entries;
    largest_table = std::max(largest_table, t.entries);
  }
  // rank 0 gathers a table in one MPI call of int counts: 16 bytes per entry (its value and
  // whether that is the top of its search), at most 2^31 - 1 bytes
  constexpr std::uint64_t kMaxTableEntries = (std::uint64_t{1} << 31) / 16 - 1;
  if (largest_table > kMaxTableEntries) {
    if (!comm.is_root()) return 2;
    throw InputError(file + ": a memory-limit table has " +
                     with_commas(static_cast<std::int64_t>(largest_table)) +
                     " entries, more than the " +
                     with_commas(static_cast<std::int64_t>(kMaxTableEntries)) +
                     " rank 0 gathers at once ([memlimit] batch = none, fewer sides, or a "
                     "smaller grid)");
  }
  if (out_bytes > f.max_output_bytes || static_cast<double>(searches) > f.max_searches) {
    if (!comm.is_root()) return 2;
    if (out_bytes > f.max_output_bytes)
      throw InputError(file + ": " + with_commas(static_cast<std::int64_t>(units)) +
                       (reduction ? " cells" : " points") + " at storage '" + f.storage +
                       "' would write " + human_bytes(out_bytes) +
                       ", more than max_bytes = " + human_bytes(f.max_output_bytes) +
                       " (use storage = summary with reduce, or a smaller grid)");
    throw InputError(file + ": the memory-limit searches have " +
                     with_commas(static_cast<std::int64_t>(searches)) +
                     " entries, more than max_searches = " +
                     with_commas(static_cast<std::int64_t>(f.max_searches)) +
                     " ([memlimit] batch = none, fewer sides, or a larger max_searches)");
  }
  // Work chunks: up to 64 Ki points, or for reduced maps up to enough cells for 1 Mi points.
  const std::uint64_t per_unit = reduction ? reduction->points_per_cell() : 1;
  const std::uint64_t unit_chunk =
      reduction ? std::max<std::uint64_t>(1, std::min<std::uint64_t>(kChunk, (1u << 20) / per_unit))
                : kChunk;
  // the flat ranges of the maps' file chunks: a work chunk fills whole file chunks, none is
  // written twice (a rewritten compressed chunk moves, and a checkpoint's index with it)
  std::vector<std::uint64_t> unit_dims;
  if (reduction) {
    unit_dims = reduction->kept_sizes();
  } else {
    for (const auto& a : grid.axes()) unit_dims.push_back(a.size());
  }
  const io::ChunkRanges ranges(unit_dims, unit_chunk);
  const std::uint64_t chunks = ranges.count();
  const auto done_before = [&](std::uint64_t chunk) { return ranges[chunk].first; };
  const std::string layout = f.storage + " reduce=" + std::to_string(reduction.has_value()) +
                             " units=" + std::to_string(units) +
                             " chunk=" + std::to_string(unit_chunk) +
                             " chunks=" + std::to_string(chunks);
  std::vector<std::string> read{"/proc/self/exe"};  // paradise itself, built anew
  for (auto& path : input_files(f)) read.push_back(std::move(path));
  const std::string inputs = input_fingerprint(read);
  std::uint64_t first_chunk = 0;
  sweep::Summary merged(grid, f.pareto);  // rank 0: the checkpointed chunks' summary
  if (resume) {
    std::optional<Checkpoint> c;
    try {
      c = read_checkpoint(output);
      if (!c)
        throw InputError(checkpoint_path(output) +
                         ": no checkpoint to resume from (run without --resume)");
      if (c->sweep_text != f.text)
        throw InputError(checkpoint_path(output) + ": checkpoint of a different sweep (" +
                         first_difference(c->sweep_text, f.text, file) + ")");
      if (c->layout != layout + "\n" + inputs) {
        if (c->layout.starts_with(layout + "\n"))
          throw InputError(checkpoint_path(output) +
                           ": a file the sweep reads, or paradise, changed since the checkpoint (" +
                           c->layout.substr(layout.size() + 1) + "; now: " + inputs +
                           "): rerun without --resume");
        throw InputError(checkpoint_path(output) + ": checkpoint of a different sweep (" +
                         c->layout + "; this one: " + layout + ")");
      }
      if (c->chunks_done > chunks)
        throw InputError(checkpoint_path(output) + ": damaged checkpoint (" +
                         std::to_string(c->chunks_done) + " chunks done of " +
                         std::to_string(chunks) + ")");
    } catch (const InputError&) {
      if (comm.is_root()) throw;
      return 2;
    }
    first_chunk = c->chunks_done;
    if (comm.is_root()) merged.merge(c->summary);
    if (comm.is_root() && !quiet)
      std::cerr << "paradise sweep: " << (dry_run ? "would resume " : "resuming ") << output
                << ".tmp: " << first_chunk << " of " << chunks
                << " chunks were done at the last checkpoint\n";
  }
  // after --resume's checks: a dry run says whether the real one would resume
  if (dry_run) {
    if (comm.is_root()) print_dry_run(std::cout, file, f, e, out_bytes, searches);
    return 0;
  }

  // from here a signal waits for the next agreement (the first one is right after the
  // output is opened): once OUT.h5.tmp exists, a stop leaves a checkpoint, even of nothing
  catch_stop_signals();
  std::optional<io::SweepFileWriter> out;
  if (!output.empty())
    together(comm, output, out, [&] {
      const auto report = [&](const std::string& why) {  // one write: ranks may report at once
        std::cerr << ("paradise sweep: error: -o " + output + ": rank " +
                      std::to_string(comm.rank()) + ": " + why + "\n");
      };
      out.emplace(open_output(output, f, args, comm, grid, reduction, resume, unit_chunk,
                              {io_timeout_s, report}));
    });
  const bool store = out && maps;
  const bool full = f.storage == "full";
  // a resume keeps the checkpointed chunks: each rank first reads its share of them back
  // (every rank the same number of collective rounds), so that a file damaged since (bytes
  // written into OUT.h5.tmp, a disk error) is not completed around values h5py cannot read
  if (store && resume) {
    const std::uint64_t n = static_cast<std::uint64_t>(comm.size());
    for (std::uint64_t round = 0; round < (first_chunk + n - 1) / n; ++round) {
      const std::uint64_t chunk = round * n + static_cast<std::uint64_t>(comm.rank());
      const auto [begin, end] = chunk < first_chunk ? ranges[chunk] : ranges[chunks];
      together(comm, output, out, [&] { out->check_readable(begin, end - begin); });
    }
  }

  const auto t0 = Clock::now();
  auto last_report = t0, last_checkpoint = t0;
  const std::uint64_t ranks = static_cast<std::uint64_t>(comm.size());
  const std::uint64_t rounds = (chunks - first_chunk + ranks - 1) / ranks;
  Buffers buf;
  sweep::Summary& mine = *summary;
  double write_s = 0;  // time in output writes (each collective, so rank 0's is every rank's)
  const auto timed = [&](auto&& step) {
    const auto w0 = Clock::now();
    together(comm, output, out, step);
    write_s += std::chrono::duration<double>(Clock::now() - w0).count();
  };
  // Agrees on a checkpoint (due: rank 0's clock) and a stop (SIGINT or SIGTERM on any rank);
  // on either, the first `done` chunks are checkpointed; a stop then ends the run.
  const auto agree = [&](bool due, std::uint64_t done) {
    std::array<std::uint64_t, 2> agreed{due, static_cast<std::uint64_t>(stop_signal())};
    comm.allreduce_max(std::span<std::uint64_t>(agreed));
    if ((agreed[0] != 0 || agreed[1] != 0) && out) {
      sweep::Summary snapshot = merged;
      merge_on_root(mine, comm, snapshot);
      timed([&] {
        out->flush();
        if (comm.is_root())
          write_checkpoint(output, {f.text, layout + "\n" + inputs, done, snapshot.to_bytes()});
      });
      last_checkpoint = Clock::now();
    }
    if (agreed[1] == 0) return;
    const int signal = static_cast<int>(agreed[1]);
    if (comm.is_root()) {
      std::cerr << (last_report != t0 ? "\n" : "") << "paradise sweep: stopped by "
                << signal_name(signal) << " after "
                << with_commas(
                       static_cast<std::int64_t>((done_before(done) - done_before(0)) * per_unit))
                << " of " << with_commas(static_cast<std::int64_t>(units * per_unit)) << " points"
                << (done == chunks ? " (before the memory-limit searches and Pareto fronts)" : "");
      if (out)
        std::cerr << "; they are kept in " << output << ".tmp and " << checkpoint_path(output)
                  << ": run the same command with --resume to go on\n";
      else
        std::cerr << "; nothing was written (no -o)\n";
    }
    if (out) out->abandon();  // flushed: the file stays for --resume
    comm.barrier();
    mpi::Environment::leave_now(128 + signal);
  };
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t chunk =
        first_chunk + round * ranks + static_cast<std::uint64_t>(comm.rank());
    const auto [begin, end] = ranges[chunk];
    buf.clear();
    for (std::uint64_t u = begin; u < end; ++u) {
      if (reduction) {
        sweep::CellResult cell;
        reduction->for_each_point(u, [&](std::uint64_t i) {
          const auto r = e.evaluate(i);
          mine.add(i, r);
          cell.add(r);
        });
        if (store) buf.add(cell);
      } else {
        const auto r = e.evaluate(u);
        mine.add(u, r);
        if (store) buf.add(r, full);
      }
    }
    if (store) timed([&] { buf.write(*out, begin, f.storage); });
    // a checkpoint when rank 0's clock says so
    agree(comm.is_root() && out && checkpoint_s > 0 && round + 1 < rounds &&
              Clock::now() - last_checkpoint > std::chrono::duration<double>(checkpoint_s),
          std::min(chunks, first_chunk + (round + 1) * ranks));
    if (!quiet && comm.is_root() && Clock::now() - last_report > std::chrono::seconds(1)) {
      last_report = Clock::now();
      report_progress(
          std::cerr, std::chrono::duration<double>(last_report - t0).count(),
          static_cast<double>(done_before(first_chunk + (round + 1) * ranks) -
                              done_before(first_chunk)) *
              static_cast<double>(per_unit),
          static_cast<double>(units - done_before(first_chunk)) * static_cast<double>(per_unit));
    }
  }

  agree(false, chunks);  // a signal in the last round, or with nothing left to do
  // Memory-limit searches: entries dealt round-robin, gathered on rank 0, each as its value
  // and whether that is the top of its search (an upward table's lower bound).
  std::vector<std::vector<std::int64_t>> limits, at_end;
  if (out) {
    for (std::size_t t = 0; t < search->tables().size(); ++t) {
      // the searches are not checkpointed (done again on a resume): a signal ends this
      // rank's share of the table at once, and the ranks then agree on the stop
      const std::uint64_t n = search->tables()[t].entries;
      const bool upward = search->tables()[t].upward;
      std::vector<std::int64_t> part;  // value, at the search's end, value, ...
      for (std::uint64_t i = static_cast<std::uint64_t>(comm.rank()); i < n; i += ranks) {
        if (part.size() % 512 == 0 && stop_signal() != 0) break;
        const std::int64_t v = search->value(t, i);
        part.push_back(v);
        part.push_back(upward && search->at_search_end(t, i, v) ? 1 : 0);
      }
      agree(false, chunks);
      const auto all = comm.gather_bytes(
          {reinterpret_cast<const std::uint8_t*>(part.data()), part.size() * sizeof(std::int64_t)});
      std::vector<std::int64_t> values, ends;
      if (comm.is_root()) {
        values.resize(n);
        ends.resize(n);
        std::size_t at = 0;
        for (std::uint64_t r = 0; r < ranks; ++r) {
          for (std::uint64_t i = r; i < n; i += ranks, at += 2 * sizeof(std::int64_t)) {
            std::memcpy(&values[i], all.data() + at, sizeof(std::int64_t));
            std::memcpy(&ends[i], all.data() + at + sizeof(std::int64_t), sizeof(std::int64_t));
          }
        }
      }
      limits.push_back(std::move(values));
      at_end.push_back(upward ? std::move(ends) : std::vector<std::int64_t>{});
    }
  }

  merge_on_root(mine, comm, merged);
  if (out) {
    timed([&] {
      write_pareto(*out, merged, comm, grid);
      write_systems(*out, e);
      write_memlimit(*out, search->tables(), limits, at_end);
      out->commit();
      if (comm.is_root()) remove_checkpoint(output);
    });
  }
  RunStats run{
      comm.size(),
      std::chrono::duration<double>(Clock::now() - t0).count(),
      write_s,
      out ? out->copy_seconds() : 0,
      0,
      peak_rss_bytes(),
      static_cast<double>(units - done_before(first_chunk)) * static_cast<double>(per_unit)};
  comm.allreduce_max(std::span<double>(&run.peak_rss_bytes, 1));
  if (!comm.is_root()) return 0;
  if (out) run.output_bytes = static_cast<double>(std::filesystem::file_size(output));
  if (!quiet && run.seconds > 1) std::cerr << '\n';
  print_summary(std::cout, file, output, f, grid, merged, run);
  return 0;
}

}  // namespace paradise::app
