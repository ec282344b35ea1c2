#include "report.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "paradise/core/table.hpp"

namespace paradise::engine {
namespace {

// The spatial split a sweep file without spatial_split gets (sweep_file.cpp).
strategy::SpatialSplit default_split(strategy::Variant v) {
  return v == strategy::Variant::Paradl ? strategy::SpatialSplit::W : strategy::SpatialSplit::Auto;
}

// The shapes every point shares, where not the default: "; spatial split all, p2 auto"
// (several values: an axis, described with the axes).
std::string shapes_text(const sweep::SweepSpec& s) {
  std::string out;
  if (s.spatial_splits.size() == 1 && s.spatial_splits[0] != default_split(s.variant))
    out += "; spatial split " + std::string(strategy::spatial_split_name(s.spatial_splits[0]));
  if (s.p2s.size() == 1) out += "; p2 " + strategy::count_text(s.p2s[0]);
  if (s.segment_counts.size() == 1)
    out += "; segments " + strategy::count_text(s.segment_counts[0]);
  return out;
}

// A point's value of an axis as the fastest-configuration table shows it: a shape (p2,
// segments, spatial_split) as used, "-" where the strategy has none, "auto: 8" where auto
// chose it; any other axis as written.
std::string shape_used(const std::string& axis, const std::string& written,
                       const sweep::PointResult& r) {
  std::string used;
  if (axis == "p2") {
    used = r.p2_used > 0 ? std::to_string(r.p2_used) : "-";
  } else if (axis == "segments") {
    used = r.segments_used > 0 ? std::to_string(r.segments_used) : "-";
  } else if (axis == "spatial_split") {
    used = r.spatial_split_used > 0 ? sweep::spatial_split_used_name(r.spatial_split_used) : "-";
  } else {
    return written;
  }
  return written == "auto" && used != "-" ? "auto: " + used : used;
}

// The fastest feasible configuration per model: its axis values, shapes as used, and a
// column for each shape searched without an axis (one value, auto) that one of them has.
TextTable fastest_table(const SweepFile& f, const sweep::Evaluator& e, const sweep::Summary& s) {
  const auto& grid = e.grid();
  const auto& models = grid.axes()[0].labels;
  std::vector<std::optional<sweep::PointResult>> used(models.size());
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (s.best()[m].found) used[m] = e.evaluate(s.best()[m].index);
  }
  const sweep::Searched searched = sweep::searched_shapes(f.spec);
  std::vector<std::string> extra;
  for (const auto& [name, on] :
       {std::pair{"spatial_split", searched.spatial_split}, std::pair{"p2", searched.p2},
        std::pair{"segments", searched.segments}}) {
    bool axis = false, shown = false;
    for (const auto& a : grid.axes()) axis = axis || a.name == name;
    for (const auto& u : used) shown = shown || (u && shape_used(name, "auto", *u) != "-");
    if (on && !axis && shown) extra.emplace_back(name);
  }
  TextTable t;
  for (const auto& a : grid.axes()) t.add_column(a.name, TextTable::Align::Left);
  for (const auto& name : extra) t.add_column(name, TextTable::Align::Left);
  t.add_column("epoch time s");
  std::vector<std::uint64_t> coords;
  for (std::size_t m = 0; m < models.size(); ++m) {
    std::vector<std::string> row;
    if (!used[m]) {
      row.assign(grid.axes().size() + extra.size() + 1, "-");
      row[0] = models[m];
      row.back() = "none feasible";  // in the time column: the others are axis values
      t.add_row(row);
      continue;
    }
    grid.decode(s.best()[m].index, coords);
    for (std::size_t a = 0; a < grid.axes().size(); ++a) {
      const auto& axis = grid.axes()[a];
      row.push_back(shape_used(axis.name, axis.text(coords[a]), *used[m]));
    }
    for (const auto& name : extra) row.push_back(shape_used(name, "auto", *used[m]));
    row.push_back(fixed(s.best()[m].epoch_time_s, 2));
    t.add_row(row);
  }
  return t;
}

std::string describe(const sweep::Axis& a) {
  const auto n = a.size();
  std::string s = a.name + " (" + std::to_string(n) + "): ";
  const auto item = [&](std::uint64_t i) { return a.text(i); };
  if (n <= 6) {
    for (std::uint64_t i = 0; i < n; ++i) s += (i ? ", " : "") + item(i);
  } else {
    s += item(0) + ", " + item(1) + ", ..., " + item(n - 1);
  }
  return s;
}

// Times a sample of the grid: 100 runs of 64 consecutive points (a sweep walks the grid in
// order, reusing per-configuration work along the batch axis), each run starting at a
// pseudo-random point (evenly spaced starts alias with the axes: all on one strategy).
// Points per second on one core.
double sample_rate(const sweep::Evaluator& e) {
  using Clock = std::chrono::steady_clock;
  const std::uint64_t n = e.grid().points(), runs = std::min<std::uint64_t>(n, 100);
  const std::uint64_t run = std::min<std::uint64_t>(64, n / runs);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;  // splitmix64 (Steele et al. 2014): fixed seed
  const auto next = [&] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  const auto t0 = Clock::now();
  for (std::uint64_t r = 0; r < runs; ++r) {
    const std::uint64_t start = next() % (n - run + 1);
    for (std::uint64_t i = 0; i < run; ++i) e.evaluate(start + i);
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return static_cast<double>(runs * run) / std::max(s, 1e-9);
}

// Seconds one rank would spend in the memory-limit searches: per table, the mean time of up
// to 16 entries spread evenly over it (a bisection's cost varies along the table: larger
// sides and batches take more steps), times its entries. Returns the entries timed too.
std::pair<double, std::uint64_t> sample_searches(sweep::MemlimitSearch& search) {
  using Clock = std::chrono::steady_clock;
  double total = 0;
  std::uint64_t timed = 0;
  for (std::size_t t = 0; t < search.tables().size(); ++t) {
    const std::uint64_t n = search.tables()[t].entries;
    const std::uint64_t k = std::min<std::uint64_t>(n, 16);
    if (k == 0) continue;
    const auto t0 = Clock::now();
    for (std::uint64_t i = 0; i < k; ++i) search.value(t, i * n / k);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    total += s / static_cast<double>(k) * static_cast<double>(n);
    timed += k;
  }
  return {total, timed};
}

std::string count(double x) {
  return with_commas(static_cast<std::int64_t>(x));
}

}  // namespace

std::string training_text(const SweepFile& f, const sweep::Evaluator& e) {
  const auto& s = f.spec;
  const strategy::Config c = sweep::one_valued_settings(s);
  if (c.variant != strategy::Variant::Paradise) return strategy::training_summary(c);
  // predict's parts, each replaced by its axis where the setting is swept
  auto parts = strategy::training_parts(c);
  if (c.precision_by_default) {
    const std::string text = e.default_precision_text();
    parts[0] = text.find(" on ") == std::string::npos
                   ? text + " precision (each system's default)"
                   : "each system's default precision (" + text + ")";
  }
  const std::array<std::pair<std::size_t, const char*>, 4> axes{
      {{s.precisions.size(), "the precision axis"},
       {s.optimizers.size(), "the optimizer axis"},
       {s.zero_stages.size(), "the zero_stage axis"},
       {s.recomputes.size(), "the recompute axis"}}};
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i ? ", " : "") + (axes[i].first > 1 ? axes[i].second : parts[i]);
  // named in the sweep file (else the default, pytorch-nccl, as the file's attribute says)
  if (s.implementations.size() > 1) out += ", the implementation axis";
  if (s.implementations.size() == 1) out += ", implementation " + s.implementations.front();
  return out + strategy::evaluation_text(c);
}

void print_dry_run(std::ostream& out, const std::string& file, const SweepFile& f,
                   const sweep::Evaluator& e, sweep::MemlimitSearch& search, double output_bytes,
                   std::uint64_t searches) {
  const auto& grid = e.grid();
  const double points = static_cast<double>(grid.points());
  const double rate = sample_rate(e);
  out << "sweep " << file << "\n";
  for (const auto& a : grid.axes()) out << "  " << describe(a) << "\n";
  out << "cost model: " << strategy::variant_name(f.spec.variant) << shapes_text(f.spec) << "\n"
      << "training: " << training_text(f, e) << "\n"
      << (f.spec.resolution.empty() && !f.memlimit.resolution && f.memlimit.sides.empty()
              ? ""
              : std::string("samples per epoch at each side: ") +
                    (f.spec.resolution_samples == model::SamplesAtSide::SameVoxels
                         ? "the dataset's voxels per epoch (resolution_samples = voxels)\n"
                         : "the dataset's count (resolution_samples = fixed)\n"))
      << "points: " << count(points) << "\n"
      << "storage: " << storage_name(f.storage);
  if (!f.reduce.empty()) {
    out << " (reduced over";
    for (const auto& r : f.reduce) out << " " << r;
    out << ")";
  }
  // the maps' raw size (what max_bytes bounds); deflate shrinks them, the rest is small
  out << ", " << human_bytes(output_bytes)
      << " of maps before compression (plus the Pareto fronts, memory limits and metadata)\n"
      << "memory-limit searches: " << count(static_cast<double>(searches)) << " entries\n"
      << "estimated time: " << fixed(points / rate, 1) << " s on one rank (" << count(rate)
      << " points/s measured on a sample; searches not included)\n";
  const auto [search_s, timed] = sample_searches(search);
  out << "estimated search time: " << fixed(search_s, 1) << " s on one rank ("
      << count(static_cast<double>(timed)) << " of the " << count(static_cast<double>(searches))
      << " entries timed)\n";
}

void report_progress(std::ostream& err, double seconds, double done, double total) {
  const double rate = done / std::max(seconds, 1e-9);
  err << "\r" << count(done) << " / " << count(total) << " points, " << count(rate)
      << " points/s, ETA " << fixed((total - done) / std::max(rate, 1e-9), 0) << " s" << std::flush;
}

double peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) * 1024.0;  // Linux: kilobytes
}

void print_summary(std::ostream& out, const std::string& file, const std::string& output,
                   const SweepFile& f, const sweep::Evaluator& e, const sweep::Summary& s,
                   const RunStats& run) {
  const auto& grid = e.grid();
  const double points = static_cast<double>(grid.points());
  const auto& c = s.counts();
  const double compute_s = std::max(run.seconds - run.write_seconds, 1e-9);
  out << "sweep " << file << ": " << count(points) << (points == 1 ? " point" : " points");
  if (run.evaluated < points)
    out << " (" << count(run.evaluated) << " evaluated by this run, the others resumed)";
  out << " on " << run.ranks << (run.ranks == 1 ? " rank" : " ranks") << " in "
      << fixed(run.seconds, 2) << " s (" << count(run.evaluated / compute_s / run.ranks)
      << " points/s per rank outside writes, peak memory " << human_bytes(run.peak_rss_bytes)
      << " per rank); " << fixed(100.0 * static_cast<double>(c[0]) / points, 1) << "% feasible ("
      << count(static_cast<double>(c[1])) << " out of memory, " << count(static_cast<double>(c[2]))
      << " invalid)\n";
  if (!output.empty()) {
    out << "wrote " << output << " (" << human_bytes(run.output_bytes) << "; "
        << fixed(run.write_seconds, 2) << " s in writes";
    if (run.write_seconds > 0)
      out << ", " << human_bytes(run.output_bytes / run.write_seconds) << "/s";
    out << ", of which " << fixed(run.copy_seconds, 2) << " s canonical copy)\n";
  }
  out << "training: " << training_text(f, e) << "\n";
  if (f.spec.needs_epochs) {  // the Pareto fronts' time to train: their epochs' source
    std::istringstream lines(e.convergence_text());
    out << "epochs to target (the Pareto group's time to train):\n";
    for (std::string line; std::getline(lines, line);) out << "  " << line << "\n";
  }
  out << "\n";
  out << "fastest feasible configuration per model:\n";
  fastest_table(f, e, s).print(out);
}

}  // namespace paradise::engine
