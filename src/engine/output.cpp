#include "output.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>

#include "paradise/engine/output_layout.hpp"
#include "paradise/implementation/profile.hpp"

namespace paradise::engine {
namespace {

using Column = io::SweepFileWriter::Column;

std::string objective_description(sweep::Objective o) {
  switch (o) {
    case sweep::Objective::EpochTime:
      return "time per epoch in seconds";
    case sweep::Objective::IterationTime:
      return "time per iteration in seconds";
    case sweep::Objective::Gpus:
      return "GPU count";
    case sweep::Objective::GpuHours:
      return "GPU-hours per epoch";
    case sweep::Objective::MemoryPerGpu:
      return "memory per GPU in bytes";
    case sweep::Objective::TimeToTrain:
      return "time to train in seconds (epochs to target x time per epoch)";
    case sweep::Objective::GpuHoursToTrain:
      return "GPU-hours to train (epochs to target x time per epoch x GPUs)";
  }
  return "";
}

// CF units (UDUNITS) of the file's axes and columns, by name: counts are dimensionless,
// times in seconds or hours, latency in microseconds, bandwidth in Gbit/s, memory in bytes;
// "": none.
std::string units_of(std::string_view name) {
  for (const char* count :
       {"gpus", "batch", "resolution", "side", "zero_stage", "input_cpu_cores_per_node"})
    if (name == count) return "1";
  if (name == "network_latency_us") return "us";
  if (name == "network_bandwidth_gbps") return "Gbit/s";
  if (name == "input_node_read_GBps" || name == "input_filesystem_GBps") return "GB/s";
  if (name == "gpu_hours" || name == "gpu_hours_to_train") return "h";
  if (name.ends_with("_time_s")) return "s";
  if (name.ends_with("_bytes")) return "byte";
  return "";
}

// The time of the run, the same on every rank: rank 0's clock, or SOURCE_DATE_EPOCH
// (reproducible-builds.org), a fixed time for files compared byte for byte; a value that is
// not a whole number of seconds is ignored.
std::string creation_time(const mpi::Comm& comm) {
  std::vector<std::uint8_t> now;
  if (comm.is_root()) {
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(epoch, &end, 10);
      // up to the year 9999 (a larger one has no gmtime, and no 4-digit year)
      if (end != epoch && *end == '\0' && errno == 0 && v >= 0 && v <= 253402300799LL)
        t = static_cast<std::time_t>(v);
    }
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    now.assign(text, text + std::strlen(text));
  }
  comm.bcast_bytes(now, 0);
  return {now.begin(), now.end()};
}

// Root attributes: where the file comes from, and the training settings with one value,
// every point's (several: an axis).
void write_root_attributes(io::SweepFileWriter& out, const SweepFile& f, const sweep::Evaluator& e,
                           const std::vector<std::string>& args, const std::string& now) {
  std::string command = "paradise sweep";
  for (const auto& a : args) command += " " + a;
  out.attribute("title", "ParaDiSE sweep " + f.path);
  out.attribute("Conventions", "CF-1.8");
  out.attribute("paradise_version", PARADISE_VERSION);
  out.attribute("creation_time", now);
  out.attribute("sweep_file", f.text);
  out.attribute("command_line", command);
  out.attribute("variant", std::string(strategy::variant_name(f.spec.variant)));
  // the shapes with one value, every point's (several: an axis; p2 and segments not given:
  // absent, the defaults)
  if (f.spec.spatial_splits.size() == 1)
    out.attribute("spatial_split",
                  std::string(strategy::spatial_split_name(f.spec.spatial_splits[0])));
  if (f.spec.p2s.size() == 1) out.attribute("p2", strategy::count_text(f.spec.p2s[0]));
  if (f.spec.segment_counts.size() == 1)
    out.attribute("segments", strategy::count_text(f.spec.segment_counts[0]));
  out.attribute("storage", std::string(storage_name(f.storage)));
  // how the samples per epoch follow the resolution axis and the memory-limit sides
  out.attribute(
      "resolution_samples",
      std::string(f.spec.resolution_samples == model::SamplesAtSide::SameVoxels ? "voxels"
                                                                                : "fixed"));
  const auto& s = f.spec;
  const strategy::Config shared = sweep::one_valued_settings(s);
  // none given (paradise variant): each GPU's default, "tf32" or "fp32 on abci, tf32 on ..."
  if (shared.precision_by_default) {
    out.attribute("precision", e.default_precision_text());
  } else if (s.precisions.size() <= 1) {
    out.attribute("precision", std::string(strategy::precision_name(shared.precision)));
  }
  if (s.variant == strategy::Variant::Paradise) {
    if (s.precisions.size() <= 1)
      out.attribute("precision_source",
                    std::string(shared.precision_by_default ? "default" : "given"));
    const strategy::Training& pol = shared;
    if (s.optimizers.size() <= 1)
      out.attribute("optimizer", std::string(strategy::optimizer_name(pol.optimizer)));
    if (s.zero_stages.size() <= 1) out.attribute("zero_stage", std::int64_t{pol.zero_stage});
    if (s.recomputes.size() <= 1)
      out.attribute("recompute", std::string(pol.recompute_activations ? "true" : "false"));
    out.attribute("eval_samples", pol.eval_samples);
    if (s.implementations.size() <= 1)
      out.attribute("implementation", s.implementations.empty()
                                          ? std::string(implementation::kDefaultName)
                                          : s.implementations.front());
  }
  // the epochs to target behind a to-train objective, one line per model and dataset
  if (s.needs_epochs) out.attribute("convergence", e.convergence_text());
}

// One coordinate variable per axis, with its units.
void write_axes(io::SweepFileWriter& out, const sweep::Grid& grid) {
  for (const auto& a : grid.axes()) {
    if (a.categorical()) {
      out.axis(a.name, a.labels);
    } else if (a.real()) {
      out.axis(a.name, a.reals);
    } else {
      out.axis(a.name, a.values);
    }
  }
  for (const auto& a : grid.axes()) {
    if (const auto u = units_of(a.name); !u.empty()) out.variable_attribute(a.name, "units", u);
  }
}

// `text` with "{over}" replaced by the reduced axes.
std::string with_axes(std::string_view text, const std::string& over) {
  std::string out(text);
  if (const auto at = out.find("{over}"); at != std::string::npos) out.replace(at, 6, over);
  return out;
}

// A map of the table (output_layout.hpp) over `dims` (empty: every axis), with its
// attributes: units, flags, the storage levels that have it, its status and what it reduces.
void declare_map(io::SweepFileWriter& out, const MapVariable& v,
                 const std::vector<std::string>& dims, const std::string& over) {
  const std::string name(v.name);
  if (v.type == MapType::u8) {
    out.variable_u8(name, with_axes(v.description, over), dims);
  } else if (v.type == MapType::i32) {
    out.variable_i32(name, with_axes(v.description, over), dims);
  } else {
    out.variable_f64(name, with_axes(v.description, over), dims);
  }
  if (!v.flag_meanings.empty()) {
    out.variable_attribute(name, "flag_meanings", std::string(v.flag_meanings));
    std::vector<std::uint8_t> codes(1);
    for (const char c : v.flag_meanings) {
      if (c == ' ') codes.push_back(static_cast<std::uint8_t>(codes.size()));
    }
    out.flag_values(name, codes);
  }
  if (!v.units.empty()) out.variable_attribute(name, "units", std::string(v.units));
  out.variable_attribute(name, "storage_levels", storage_levels(v));
  if (!v.status.empty()) out.variable_attribute(name, "ancillary_variables", std::string(v.status));
  if (!v.minimum_of.empty()) out.variable_attribute(name, "minimum_of", std::string(v.minimum_of));
}

// The maps the storage level keeps: per point, or reduced over `f.reduce` (summary; none
// without a reduction).
void declare_maps(io::SweepFileWriter& out, const SweepFile& f,
                  const std::optional<sweep::Reduction>& reduction) {
  if (f.storage == Storage::summary && !reduction) return;
  std::string over;
  for (const auto& r : f.reduce) over += (over.empty() ? "" : ", ") + r;
  const std::vector<std::string> dims = reduction ? reduction->kept() : std::vector<std::string>{};
  const auto searched = sweep::searched_shapes(f.spec);
  for (const auto& v : map_variables()) {
    if (kept(v, f.storage, searched)) declare_map(out, v, dims, over);
  }
}

}  // namespace

io::SweepFileWriter open_output(const std::string& path, const SweepFile& f,
                                const std::vector<std::string>& args, const mpi::Comm& comm,
                                const sweep::Evaluator& e,
                                const std::optional<sweep::Reduction>& reduction, bool resume,
                                std::uint64_t chunk_points,
                                io::SweepFileWriter::Deadline deadline) {
  io::SweepFileWriter out(
      path, comm, resume ? io::SweepFileWriter::Mode::Resume : io::SweepFileWriter::Mode::Create,
      std::move(deadline));
  write_root_attributes(out, f, e, args, creation_time(comm));
  out.chunk_points(chunk_points);
  write_axes(out, e.grid());
  declare_maps(out, f, reduction);
  return out;
}

namespace {

// The front's columns of the shapes searched: the values its points used (their evaluation
// again, on rank 0; the columns empty elsewhere).
std::vector<Column> chosen_columns(const std::vector<sweep::Candidate>& front,
                                   const sweep::Evaluator& e, const sweep::Searched& searched) {
  std::vector<Column> cols;
  if (searched.p2)
    cols.push_back({Column::Kind::Integer,
                    "p2_chosen",
                    "GPUs per group (data+pipeline: stages) used; 0: none",
                    {},
                    {},
                    {}});
  if (searched.segments)
    cols.push_back({Column::Kind::Integer,
                    "segments_chosen",
                    "pipeline micro-batches used; 0: none",
                    {},
                    {},
                    {}});
  if (searched.spatial_split)
    cols.push_back({Column::Kind::Text,
                    "spatial_split_chosen",
                    "spatial split used (none, w, hw, all)",
                    {},
                    {},
                    {}});
  for (const auto& x : front) {
    const auto r = e.evaluate(x.index);
    std::size_t k = 0;
    if (searched.p2) cols[k++].integers.push_back(r.p2_used);
    if (searched.segments) cols[k++].integers.push_back(r.segments_used);
    if (searched.spatial_split)
      cols[k].text.emplace_back(sweep::spatial_split_used_name(r.spatial_split_used));
  }
  return cols;
}

}  // namespace

void write_pareto(io::SweepFileWriter& out, sweep::Summary& summary, const mpi::Comm& comm,
                  const sweep::Evaluator& e, const sweep::Searched& searched) {
  const sweep::Grid& grid = e.grid();
  std::vector<sweep::Candidate> front;
  if (comm.is_root()) front = summary.fronts();
  std::uint64_t n = front.size();
  comm.allreduce_max(std::span<std::uint64_t>(&n, 1));  // rank 0's count on every rank
  const auto& axes = grid.axes();
  std::vector<Column> cols;
  for (const auto& a : axes) {
    Column col;
    col.kind = a.categorical() ? Column::Kind::Text
               : a.real()      ? Column::Kind::Real
                               : Column::Kind::Integer;
    col.name = a.name;
    col.description = a.name + " of the Pareto point";
    cols.push_back(std::move(col));
  }
  const auto& p = summary.pareto();
  std::vector<Column> objective;
  for (std::size_t k = 0; k < p.objectives.size(); ++k) {
    static constexpr const char* kOrdinal[] = {"first", "second", "third"};
    objective.push_back(
        {Column::Kind::Real,
         std::string(sweep::objective_column(p.objectives[k])),
         std::string(kOrdinal[k]) + " objective: " + objective_description(p.objectives[k]),
         {},
         {},
         {}});
  }
  Column index{
      Column::Kind::Integer, "point_index", "flat index of the point in the grid", {}, {}, {}};
  std::vector<std::uint64_t> c;
  for (const auto& x : front) {
    grid.decode(x.index, c);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      if (axes[a].categorical()) {
        cols[a].text.push_back(axes[a].labels[c[a]]);
      } else if (axes[a].real()) {
        cols[a].reals.push_back(axes[a].reals[c[a]]);
      } else {
        cols[a].integers.push_back(axes[a].values[c[a]]);
      }
    }
    for (std::size_t k = 0; k < objective.size(); ++k)
      objective[k].reals.push_back(k == 0 ? x.first : k == 1 ? x.second : x.third);
    index.integers.push_back(static_cast<std::int64_t>(x.index));
  }
  // an objective that is also an axis (gpus) is already a column
  for (auto& o : objective) {
    bool is_axis = false;
    for (const auto& a : axes) is_axis = is_axis || a.name == o.name;
    if (!is_axis) cols.push_back(std::move(o));
  }
  for (auto& chosen : chosen_columns(front, e, searched)) cols.push_back(std::move(chosen));
  cols.push_back(std::move(index));
  out.table("pareto", "point", n, cols);
  for (const auto& col : cols) {
    if (const auto u = units_of(col.name); !u.empty())
      out.dataset_attribute("pareto/" + col.name, "units", u);
  }
  // the axes of which every combination has its own front (the grid's, in [pareto] group):
  // readers must not take a front's points as the fastest of a value of any other axis
  std::string group;
  for (const auto& name : summary.pareto().group) {
    for (const auto& a : axes) {
      if (a.name == name) group += (group.empty() ? "" : ", ") + name;
    }
  }
  out.group_attribute("pareto", "group", group);
}

void write_systems(io::SweepFileWriter& out, const sweep::Evaluator& e) {
  std::vector<std::string> labels;  // the system axis: the sweep's `systems` values, in order
  for (const auto& a : e.grid().axes()) {
    if (a.name == "system") labels = a.labels;
  }
  io::SweepFileWriter::GroupArray device{
      "device_memory_bytes", "device memory of one GPU", {"system"}, {}};
  // the bound a point's memory per GPU is tested against (strategy::predict)
  io::SweepFileWriter::GroupArray usable{
      "usable_memory_bytes", "device memory less the margin kept free", {"system"}, {}};
  io::SweepFileWriter::GroupArray per_node{"gpus_per_node", "GPUs per node", {"system"}, {}};
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto& s = e.system(i);
    device.values.push_back(std::llround(s.gpu.memory_bytes));
    usable.values.push_back(std::llround(s.usable_memory_bytes()));
    per_node.values.push_back(s.gpus_per_node);
  }
  out.arrays("systems", {{"system", labels, {}}}, {device, usable, per_node});
  out.dataset_attribute("systems/device_memory_bytes", "units", "byte");
  out.dataset_attribute("systems/usable_memory_bytes", "units", "byte");
  out.dataset_attribute("systems/gpus_per_node", "units", "1");
}

void write_memlimit(io::SweepFileWriter& out, const std::vector<sweep::MemlimitTable>& tables,
                    const std::vector<std::vector<std::int64_t>>& values,
                    const std::vector<std::vector<std::int64_t>>& at_end) {
  if (tables.empty()) return;
  std::vector<io::SweepFileWriter::GroupAxis> axes;
  std::vector<io::SweepFileWriter::GroupArray> arrays;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    io::SweepFileWriter::GroupArray a{tables[t].name, tables[t].description, {}, values[t]};
    for (const auto& x : tables[t].axes) {
      a.dims.push_back(x.name);
      bool known = false;
      for (const auto& y : axes) known = known || y.name == x.name;
      if (!known) axes.push_back({x.name, x.labels, x.values, x.reals});
    }
    if (tables[t].upward) {
      // the limits at the top of their search (rank 0's values; none elsewhere)
      io::SweepFileWriter::GroupArray top{
          tables[t].name + "_at_search_end",
          "1 where " + tables[t].name +
              " is the top of its search, a lower bound (a larger value may fit, as `paradise "
              "memlimit` says \"or more\"); 0 elsewhere",
          a.dims, at_end[t]};
      arrays.push_back(std::move(a));
      arrays.push_back(std::move(top));
    } else {
      arrays.push_back(std::move(a));
    }
  }
  out.arrays("memlimit", axes, arrays);
  for (const auto& x : axes) {
    if (const auto u = units_of(x.name); !u.empty())
      out.dataset_attribute("memlimit/" + x.name, "units", u);
  }
  for (const auto& a : arrays) out.dataset_attribute("memlimit/" + a.name, "units", "1");
}

}  // namespace paradise::engine
