// `paradise sweep`: evaluate a grid of configurations and summarise it.
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <iostream>
#include <limits>
#include <optional>
#include <span>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "paradise/io/sweep_file_writer.hpp"
#include "paradise/mpi/comm.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"
#include "sweep_file.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

using Clock = std::chrono::steady_clock;

struct Best {  // fastest feasible point of a model (plain bytes: gathered across ranks)
  double time_s = std::numeric_limits<double>::infinity();
  std::uint64_t index = 0;
};

std::string describe(const sweep::Axis& a) {
  const auto n = a.size();
  std::string s = a.name + " (" + std::to_string(n) + "): ";
  const auto item = [&](std::uint64_t i) {
    return a.categorical() ? a.labels[i] : std::to_string(a.values[i]);
  };
  if (n <= 6) {
    for (std::uint64_t i = 0; i < n; ++i) s += (i ? ", " : "") + item(i);
  } else {
    s += item(0) + ", " + item(1) + ", ..., " + item(n - 1);
  }
  return s;
}

// Times an evenly spaced sample of the grid: points per second on one core.
double sample_rate(const sweep::Evaluator& e) {
  const std::uint64_t n = e.grid().points(), samples = std::min<std::uint64_t>(n, 2000);
  const auto t0 = Clock::now();
  for (std::uint64_t i = 0; i < samples; ++i) e.evaluate(i * (n / samples));
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return static_cast<double>(samples) / std::max(s, 1e-9);
}

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
  void write(io::SweepFileWriter& out, std::uint64_t begin, bool full) const {
    out.write("status", begin, std::span<const std::uint8_t>(status));
    out.write("memory_per_gpu_bytes", begin, std::span<const double>(memory));
    if (!full) return;
    out.write("limiting_factor", begin, std::span<const std::uint8_t>(limit));
    out.write("iteration_time_s", begin, std::span<const double>(iteration));
    out.write("epoch_time_s", begin, std::span<const double>(epoch));
    out.write("compute_time_s", begin, std::span<const double>(compute));
    out.write("communication_time_s", begin, std::span<const double>(communication));
  }
};

// Pareto fronts (epoch time vs. GPUs, both minimised) per group of model x dataset x
// system x batch, over strategies and GPU counts. Kept small while evaluating.
struct Fronts {
  const sweep::Grid& grid;
  std::uint64_t nb, ng, nk;
  std::vector<std::vector<sweep::Candidate>> groups;
  explicit Fronts(const sweep::Grid& g)
      : grid(g),
        nb(g.axes()[5].size()),
        ng(g.axes()[4].size()),
        nk(g.axes()[3].size()),
        groups(g.points() / (nb * ng * nk) * nb) {}
  void add(std::uint64_t i, double epoch_time_s) {
    auto& f = groups[i / (nk * ng * nb) * nb + i % nb];
    const auto gpus = static_cast<double>(grid.axes()[4].values[(i / nb) % ng]);
    f.push_back({epoch_time_s, gpus, i});
    if (f.size() > 256) f = sweep::pareto_front(std::move(f));
  }
};

// Gathers every rank's fronts on rank 0, merges them per group exactly, and writes the
// group "pareto" (one 1-D variable per field over dimension "point").
void write_pareto(io::SweepFileWriter& out, Fronts& fronts, const mpi::Comm& comm,
                  const sweep::Grid& grid) {
  std::vector<sweep::Candidate> mine;
  for (auto& f : fronts.groups) {
    f = sweep::pareto_front(std::move(f));
    mine.insert(mine.end(), f.begin(), f.end());
  }
  const auto bytes = comm.gather_bytes(
      {reinterpret_cast<const std::uint8_t*>(mine.data()), mine.size() * sizeof(sweep::Candidate)});
  std::vector<sweep::Candidate> front;  // rank 0: the merged fronts, group by group
  if (comm.is_root()) {
    std::vector<sweep::Candidate> all(bytes.size() / sizeof(sweep::Candidate));
    std::memcpy(all.data(), bytes.data(), bytes.size());
    for (auto& g : fronts.groups) g.clear();
    for (const auto& c : all)
      fronts.groups[c.index / (fronts.nk * fronts.ng * fronts.nb) * fronts.nb + c.index % fronts.nb]
          .push_back(c);
    for (auto& g : fronts.groups) {
      const auto f = sweep::pareto_front(std::move(g));
      front.insert(front.end(), f.begin(), f.end());
    }
  }
  std::vector<std::uint8_t> count(8);
  const std::uint64_t n_root = front.size();
  std::memcpy(count.data(), &n_root, 8);
  count = comm.broadcast_bytes(std::move(count));
  std::uint64_t n = 0;
  std::memcpy(&n, count.data(), 8);
  using Column = io::SweepFileWriter::Column;
  std::vector<Column> cols;
  std::vector<std::uint64_t> c;
  const auto& axes = grid.axes();
  for (std::size_t a = 0; a < axes.size(); ++a) {
    Column col;
    col.kind = axes[a].categorical() ? Column::Kind::Text : Column::Kind::Integer;
    col.name = axes[a].name;
    col.description = axes[a].name + " of the Pareto point";
    cols.push_back(std::move(col));
  }
  Column time{Column::Kind::Real, "epoch_time_s", "time per epoch in seconds", {}, {}, {}};
  Column index{
      Column::Kind::Integer, "point_index", "flat index of the point in the grid", {}, {}, {}};
  for (const auto& p : front) {
    grid.decode(p.index, c);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (axes[a].categorical()) {
        cols[a].text.push_back(axes[a].labels[c[a]]);
      } else {
        cols[a].integers.push_back(axes[a].values[c[a]]);
      }
    }
    time.reals.push_back(p.first);
    index.integers.push_back(static_cast<std::int64_t>(p.index));
  }
  cols.push_back(std::move(time));
  cols.push_back(std::move(index));
  out.table("pareto", "point", n, cols);
}

// Creates the HDF5 file with its attributes, coordinates and (empty) data variables.
io::SweepFileWriter open_output(const std::string& path, const SweepFile& f, const Args& args,
                                const mpi::Comm& comm, const sweep::Grid& grid) {
  io::SweepFileWriter out(path, comm);
  // identical metadata on every rank: rank 0's clock
  std::vector<std::uint8_t> now;
  if (comm.is_root()) {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    now.assign(text, text + std::strlen(text));
  }
  now = comm.broadcast_bytes(std::move(now));
  std::string command = "paradise sweep";
  for (const auto& a : args) command += " " + a;
  out.attribute("title", "ParaDiSE sweep " + f.path);
  out.attribute("Conventions", "CF-1.8");
  out.attribute("paradise_version", PARADISE_VERSION);
  out.attribute("creation_time", std::string(now.begin(), now.end()));
  out.attribute("sweep_file", f.text);
  out.attribute("command_line", command);
  out.attribute("ranks", static_cast<std::int64_t>(comm.size()));
  out.attribute("variant", std::string("paradl"));
  out.attribute("storage", f.storage);
  for (const auto& a : grid.axes()) {
    if (a.categorical()) {
      out.axis(a.name, a.labels);
    } else {
      out.axis(a.name, a.values);
    }
  }
  if (f.storage == "summary") return out;
  out.variable_u8("status", "0 ok, 1 out_of_memory, 2 invalid");
  out.variable_attribute("status", "flag_meanings", "ok out_of_memory invalid");
  out.variable_f64("memory_per_gpu_bytes", "memory per GPU in bytes");
  if (f.storage == "full") {
    out.variable_u8("limiting_factor", "0 none, 1 compute, 2 communication, 3 memory");
    out.variable_attribute("limiting_factor", "flag_meanings", "none compute communication memory");
    out.variable_f64("iteration_time_s", "time per iteration in seconds");
    out.variable_f64("epoch_time_s", "time per epoch in seconds");
    out.variable_f64("compute_time_s", "compute time per epoch in seconds");
    out.variable_f64("communication_time_s", "communication time per epoch in seconds");
  }
  return out;
}

}  // namespace

int run_sweep(const Args& args) {
  po::options_description desc("paradise sweep SWEEP.ini [-o OUT.h5] [--dry-run] [--quiet]");
  std::string file, output;
  bool dry_run = false, quiet = false;
  desc.add_options()("sweep-file", po::value(&file)->required(), "the sweep file (INI)")(
      "output,o", po::value(&output), "the HDF5 file to write")(
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

  const mpi::Environment mpi_environment;
  const auto comm = mpi::Comm::world();
  // Every rank reads and validates the same file; only rank 0 reports a bad one.
  std::optional<SweepFile> parsed;
  try {
    parsed = read_sweep_file(file);
  } catch (const InputError&) {
    if (comm.is_root()) throw;
    return 2;
  }
  const SweepFile& f = *parsed;
  std::optional<sweep::Evaluator> evaluator;
  try {
    evaluator.emplace(f.spec);
  } catch (const InputError&) {
    if (comm.is_root()) throw;
    return 2;
  }
  const sweep::Evaluator& e = *evaluator;
  const auto& grid = e.grid();
  const double points = static_cast<double>(grid.points());
  const double out_bytes = points * bytes_per_point(f.storage);
  if (out_bytes > f.max_output_bytes) {
    if (!comm.is_root()) return 2;
    throw InputError(file + ": " + with_commas(static_cast<std::int64_t>(grid.points())) +
                     " points at storage '" + f.storage + "' would write " +
                     human_bytes(out_bytes) +
                     ", more than max_bytes = " + human_bytes(f.max_output_bytes) +
                     " (use storage = summary or a smaller grid)");
  }
  if (dry_run) {
    if (!comm.is_root()) return 0;
    const double rate = sample_rate(e);
    std::cout << "sweep " << file << "\n";
    for (const auto& a : grid.axes()) std::cout << "  " << describe(a) << "\n";
    std::cout << "points: " << with_commas(static_cast<std::int64_t>(grid.points())) << "\n"
              << "storage: " << f.storage << ", estimated output " << human_bytes(out_bytes) << "\n"
              << "estimated time: " << fixed(points / rate, 1) << " s on one rank ("
              << with_commas(static_cast<std::int64_t>(rate))
              << " points/s measured on a sample)\n";
    return 0;
  }
  std::optional<io::SweepFileWriter> out;
  if (!output.empty()) {
    try {
      out.emplace(open_output(output, f, args, comm, grid));
    } catch (const io::Error& err) {  // e.g. an unwritable directory: bad input, not a crash
      if (comm.is_root()) throw InputError(std::string("-o ") + output + ": " + err.what());
      return 2;
    }
  }
  const bool per_point = out && f.storage != "summary";
  const bool full = f.storage == "full";

  // Ranks take interleaved chunks of the index space (expensive strategies are spread over
  // all ranks), keep per-model best and feasibility counts (memory does not grow with the
  // grid), and reduce them; ties go to the lowest index so any rank count gives the same.
  const auto& models = grid.axes()[0].labels;
  const std::uint64_t per_model = grid.points() / models.size();
  constexpr std::uint64_t kChunk =
      65536;  // = the HDF5 chunk size: most file chunks are written once
  const std::uint64_t chunks = (grid.points() + kChunk - 1) / kChunk;
  std::vector<Best> best(models.size());
  std::vector<std::uint64_t> counts(3, 0);  // by strategy::Status
  const auto t0 = Clock::now();
  auto last = t0;
  std::uint64_t done = 0;
  // Every rank makes the same number of (collective) writes: round t holds chunk t*R + r.
  const std::uint64_t rounds = (chunks + static_cast<std::uint64_t>(comm.size()) - 1) /
                               static_cast<std::uint64_t>(comm.size());
  Buffers buf;
  Fronts fronts(grid);
  // A failed write (full disk, quota) ends the sweep with the path in the message; the
  // writer's destructor removes the temporary file, so nothing half-written remains.
  const auto io_failed = [&](auto&& write) {
    try {
      write();
      return false;
    } catch (const io::Error& err) {
      if (comm.is_root()) throw InputError(std::string("-o ") + output + ": " + err.what());
      return true;
    }
  };
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t chunk =
        round * static_cast<std::uint64_t>(comm.size()) + static_cast<std::uint64_t>(comm.rank());
    const std::uint64_t begin = std::min(grid.points(), chunk * kChunk);
    const std::uint64_t end = std::min(grid.points(), begin + kChunk);
    buf.clear();
    for (std::uint64_t i = begin; i < end; ++i) {
      const auto r = e.evaluate(i);
      ++counts[r.status];
      Best& b = best[i / per_model];
      if (r.status == 0 &&
          (r.epoch_time_s < b.time_s || (r.epoch_time_s == b.time_s && i < b.index)))
        b = {r.epoch_time_s, i};
      if (per_point) buf.add(r, full);
      if (out && r.status == 0) fronts.add(i, r.epoch_time_s);
    }
    if (per_point && io_failed([&] { buf.write(*out, begin, full); })) return 2;
    done += end - begin;
    if (!quiet && comm.is_root() && Clock::now() - last > std::chrono::seconds(1)) {
      last = Clock::now();
      const double s = std::chrono::duration<double>(last - t0).count();
      const double all_done = std::min(points, static_cast<double>(done) * comm.size());
      const double rate = all_done / s;
      std::cerr << "\r" << with_commas(static_cast<std::int64_t>(all_done)) << " / "
                << with_commas(static_cast<std::int64_t>(grid.points())) << " points, "
                << with_commas(static_cast<std::int64_t>(rate)) << " points/s, ETA "
                << fixed((points - all_done) / rate, 0) << " s" << std::flush;
    }
  }
  if (out && io_failed([&] {
        write_pareto(*out, fronts, comm, grid);
        out->commit();
      })) {
    return 2;
  }
  comm.allreduce_sum(counts);
  const auto gathered = comm.gather_bytes(
      {reinterpret_cast<const std::uint8_t*>(best.data()), best.size() * sizeof(Best)});
  if (!comm.is_root()) return 0;
  for (std::size_t r = 1; r < gathered.size() / (best.size() * sizeof(Best)); ++r) {
    for (std::size_t m = 0; m < best.size(); ++m) {
      Best other;
      std::memcpy(&other, gathered.data() + (r * best.size() + m) * sizeof(Best), sizeof(Best));
      if (other.time_s < best[m].time_s ||
          (other.time_s == best[m].time_s && other.index < best[m].index))
        best[m] = other;
    }
  }
  const std::uint64_t ok = counts[0], oom = counts[1], invalid = counts[2];
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!quiet && seconds > 1) std::cerr << '\n';
  std::cout << "sweep " << file << ": " << with_commas(static_cast<std::int64_t>(grid.points()))
            << " points on " << comm.size() << (comm.size() == 1 ? " rank" : " ranks") << " in "
            << fixed(seconds, 2) << " s; " << fixed(100.0 * static_cast<double>(ok) / points, 1)
            << "% feasible (" << with_commas(static_cast<std::int64_t>(oom)) << " out of memory, "
            << with_commas(static_cast<std::int64_t>(invalid)) << " invalid)\n\n";
  TextTable t;
  for (const char* h : {"model", "dataset", "system", "strategy", "gpus", "batch"})
    t.add_column(h, TextTable::Align::Left);
  t.add_column("epoch time s");
  std::vector<std::uint64_t> c;
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (!std::isfinite(best[m].time_s)) {
      t.add_row({models[m], "-", "-", "no feasible configuration", "-", "-", "-"});
      continue;
    }
    grid.decode(best[m].index, c);
    std::vector<std::string> row;
    for (std::size_t a = 0; a < grid.axes().size(); ++a) {
      const auto& axis = grid.axes()[a];
      row.push_back(axis.categorical() ? axis.labels[c[a]] : std::to_string(axis.values[c[a]]));
    }
    row.push_back(fixed(best[m].time_s, 2));
    t.add_row(row);
  }
  std::cout << "fastest feasible configuration per model:\n";
  t.print(std::cout);
  return 0;
}

}  // namespace paradise::app
