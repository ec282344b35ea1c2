// The engine's inputs: the evaluator and its grid, the output's size against the sweep
// file's limits, the work chunks, and the checkpoint a resume starts from.
#include <algorithm>
#include <iostream>
#include <optional>

#include "guard.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "paradise/engine/output_layout.hpp"
#include "sweep_run.hpp"

namespace paradise::engine {
namespace {

// rank 0 gathers a table in one MPI call of int counts: 16 bytes per entry (its value and
// whether that is the top of its search), at most 2^31 - 1 bytes
constexpr std::uint64_t kMaxTableEntries = (std::uint64_t{1} << 31) / 16 - 1;

std::string count(std::uint64_t n) {
  return with_commas(static_cast<std::int64_t>(n));
}

}  // namespace

// The output's shape from the grid's axes alone: the reduction, the maps' size and the
// memory-limit tables' sizes, each held against the sweep file's limits before any workload
// is built (10^7 network variants built 10 GB of systems before max_searches refused them).
void SweepRun::size_output() {
  std::optional<sweep::Grid> grid;
  try {
    grid.emplace(sweep::make_grid(f_.spec));
  } catch (const InputError& e) {  // said of the sweep file, as the evaluator's errors
    throw InputError(f_.path + ": " + e.what());
  }
  if (!f_.reduce.empty() && f_.storage != Storage::summary)  // the reader refuses it too
    throw InputError(f_.path + ": maps are reduced only with storage = summary");
  if (!f_.reduce.empty()) reduction_.emplace(*grid, f_.reduce);
  units_ = reduction_ ? reduction_->cells() : grid->points();
  maps_ = f_.storage != Storage::summary || reduction_.has_value();
  out_bytes_ = maps_ ? static_cast<double>(units_) *
                           bytes_per_cell(f_.storage, sweep::searched_shapes(f_.spec))
                     : 0;
  std::uint64_t largest_table = 0;
  for (const auto& t : sweep::memlimit_tables(*grid, f_.memlimit)) {
    searches_ += t.entries;
    largest_table = std::max(largest_table, t.entries);
  }
  if (largest_table > kMaxTableEntries)
    throw InputError(f_.path + ": a memory-limit table has " + count(largest_table) +
                     " entries, more than the " + count(kMaxTableEntries) +
                     " rank 0 gathers at once ([memlimit] batch = none, fewer sides, or a "
                     "smaller grid)");
  if (out_bytes_ > f_.max_output_bytes)
    throw InputError(
        f_.path + ": " + count(units_) + (reduction_ ? " cells" : " points") + " at storage '" +
        std::string(storage_name(f_.storage)) + "' would write " + human_bytes(out_bytes_) +
        ", more than max_bytes = " + human_bytes(f_.max_output_bytes) +
        (f_.storage != Storage::summary ? " (use storage = summary with reduce, or a smaller grid)"
         : f_.reduce.empty()            ? " (reduce some axes, or a smaller grid)"
                                        : " (a smaller grid, or a larger max_bytes)"));
  if (static_cast<double>(searches_) > f_.max_searches)
    throw InputError(f_.path + ": the memory-limit searches have " + count(searches_) +
                     " entries, more than max_searches = " +
                     with_commas(static_cast<std::int64_t>(f_.max_searches)) +
                     " ([memlimit] batch = none, fewer sides, or a larger max_searches)");
}

// The evaluator (every workload), the searches and the summary, once the sizes are known.
void SweepRun::build() {
  try {
    evaluator_.emplace(f_.spec);
  } catch (const InputError& e) {  // the grid or its workloads: said of the sweep file
    throw InputError(f_.path + ": " + e.what());
  }
  search_.emplace(*evaluator_, f_.memlimit);
  mine_.emplace(evaluator_->grid(), f_.pareto);
  if (!o_.output.empty()) refuse_replacing(o_.output, f_);
}

// Rank 0 alone, before any work: the side files' paths, then the output's lock (a dry run
// only asks whether it is free), then an interrupted sweep's files under it.
void SweepRun::guard_output() {
  refuse_side_paths(o_.output);
  if (o_.dry_run) {
    OutputLock::check_free(o_.output);
  } else {
    lock_.emplace(o_.output);
  }
  refuse_interrupted(o_.output, o_.resume);
}

void SweepRun::plan_chunks() {
  // work chunks: up to chunk_points (64 Ki) points, or for reduced maps up to enough cells
  // for 1 Mi points
  const std::uint64_t most = std::max<std::uint64_t>(1, o_.chunk_points);
  per_unit_ = reduction_ ? reduction_->points_per_cell() : 1;
  unit_chunk_ =
      reduction_ ? std::max<std::uint64_t>(1, std::min<std::uint64_t>(most, (1u << 20) / per_unit_))
                 : most;
  // the flat ranges of the maps' file chunks: a work chunk fills whole file chunks, none is
  // written twice (a rewritten compressed chunk moves, and a checkpoint's index with it)
  std::vector<std::uint64_t> unit_dims;
  if (reduction_) {
    unit_dims = reduction_->kept_sizes();
  } else {
    for (const auto& a : evaluator_->grid().axes()) unit_dims.push_back(a.size());
  }
  ranges_.emplace(unit_dims, unit_chunk_);
  chunks_ = ranges_->count();
  layout_ = std::string(storage_name(f_.storage)) +
            " reduce=" + std::to_string(reduction_.has_value()) +
            " units=" + std::to_string(units_) + " chunk=" + std::to_string(unit_chunk_) +
            " chunks=" + std::to_string(chunks_);
  std::vector<std::string> read{"/proc/self/exe"};  // paradise itself, built anew
  for (auto& path : input_files(f_)) read.push_back(std::move(path));
  inputs_ = input_fingerprint(read);
  merged_.emplace(evaluator_->grid(), f_.pareto);
}

void SweepRun::check_checkpoint(const Checkpoint& c) const {
  const std::string at = checkpoint_path(o_.output);
  if (c.sweep_text != f_.text)
    throw InputError(at + ": checkpoint of a different sweep (" +
                     first_difference(c.sweep_text, f_.text, f_.path) + ")");
  if (c.layout != layout_ + "\n" + inputs_) {
    if (c.layout.starts_with(layout_ + "\n"))
      throw InputError(
          at + ": a file the sweep reads, or paradise, changed since the checkpoint (" +
          c.layout.substr(layout_.size() + 1) + "; now: " + inputs_ + "): rerun without --resume");
    throw InputError(at + ": checkpoint of a different sweep (" + c.layout +
                     "; this one: " + layout_ + ")");
  }
  if (c.chunks_done > chunks_)
    throw InputError(at + ": damaged checkpoint (" + std::to_string(c.chunks_done) +
                     " chunks done of " + std::to_string(chunks_) + ")");
}

void SweepRun::resume() {
  const auto c = read_checkpoint(o_.output);
  if (!c)
    throw InputError(checkpoint_path(o_.output) +
                     ": no checkpoint to resume from (run without --resume)");
  check_checkpoint(*c);
  first_chunk_ = c->chunks_done;
  if (comm_.is_root()) merged_->merge(c->summary);
  if (comm_.is_root() && !o_.quiet)
    std::cerr << "paradise sweep: " << (o_.dry_run ? "would resume " : "resuming ") << o_.output
              << ".tmp: " << first_chunk_ << " of " << chunks_
              << " chunks were done at the last checkpoint\n";
}

}  // namespace paradise::engine
