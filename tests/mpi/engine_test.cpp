// The real sweep engine (engine::run_sweep) on every rank count: the file written by all
// ranks of MPI_COMM_WORLD is, byte for byte, the file rank 0 writes alone (MPI_COMM_SELF),
// for each storage level, with memory-limit searches and Pareto fronts. Work chunks of a few
// points spread the small grid over the ranks, unevenly (12 chunks on 7 ranks: two rounds).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "paradise/engine/output_layout.hpp"
#include "paradise/engine/run_sweep.hpp"
#include "paradise/mpi/comm.hpp"

namespace paradise {
namespace {

namespace fs = std::filesystem;

// 3 models x 1 dataset x 1 system x 4 strategies x 7 GPU counts x 3 batches = 252 points; a
// file chunk of at most 37 points holds whole gpus x batch planes (21 points): 12 chunks.
engine::SweepFile small_sweep(engine::Storage storage, std::vector<std::string> reduce = {}) {
  engine::SweepFile f;
  f.path = "engine_test.ini";
  f.text = "[sweep]\nmodel = resnet50, vgg16, alexnet\n";  // recorded, not parsed
  f.spec.models = {"resnet50", "vgg16", "alexnet"};
  f.spec.datasets = {"imagenet"};
  f.spec.systems = {"abci"};
  f.spec.strategies = {"data", "filter", "data+filter", "pipeline"};
  f.spec.gpus = {1, 2, 4, 8, 16, 32, 64};
  f.spec.batch = {64, 256, 1024};
  f.storage = storage;
  f.reduce = std::move(reduce);
  return f;
}

// A folder every rank names the same (rank 0's), made by rank 0.
fs::path shared_folder(const mpi::Comm& comm) {
  std::vector<std::uint8_t> name;
  if (comm.is_root()) {
    const auto path =
        fs::temp_directory_path() / ("paradise-engine-test-" + std::to_string(::getpid()));
    fs::create_directories(path);
    const std::string text = path.string();
    name.assign(text.begin(), text.end());
  }
  comm.bcast_bytes(name, 0);
  return std::string(name.begin(), name.end());
}

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `f` on every rank into ranks.h5, then on rank 0 alone into one.h5; rank 0 compares.
void expect_same_file_on_any_rank_count(const engine::SweepFile& f, const std::string& name) {
  const auto world = mpi::Comm::world();
  const fs::path folder = shared_folder(world);
  ::setenv("SOURCE_DATE_EPOCH", "0", 1);  // the same creation_time in both files
  engine::SweepOptions o;
  o.quiet = true;
  o.chunk_points = 37;
  o.command_line = {f.path, "-o", name + ".h5"};
  o.output = (folder / (name + "-ranks.h5")).string();
  ASSERT_EQ(engine::run_sweep(f, o, world), 0);
  world.barrier();
  if (world.is_root()) {
    o.output = (folder / (name + "-one.h5")).string();
    ASSERT_EQ(engine::run_sweep(f, o, mpi::Comm::self()), 0);
    const std::string ranks = bytes_of(folder / (name + "-ranks.h5"));
    EXPECT_GT(ranks.size(), 1000u);
    EXPECT_TRUE(ranks == bytes_of(folder / (name + "-one.h5")))
        << name << ": the file of " << world.size() << " ranks is not the one-rank file";
    fs::remove_all(folder);
  }
  world.barrier();
}

TEST(Engine, FullMapsAreTheSameBytesOnAnyRankCount) {
  expect_same_file_on_any_rank_count(small_sweep(engine::Storage::full), "full");
}

TEST(Engine, StatusAndMemoryMapsAreTheSameBytesOnAnyRankCount) {
  auto f = small_sweep(engine::Storage::maps);
  f.memlimit.batch = false;  // fewest GPUs per side instead of the largest batch
  f.memlimit.sides = {128, 224};
  expect_same_file_on_any_rank_count(f, "maps");
}

TEST(Engine, ReducedMapsAreTheSameBytesOnAnyRankCount) {
  expect_same_file_on_any_rank_count(small_sweep(engine::Storage::summary, {"batch"}), "reduced");
}

TEST(Engine, ASummaryWithoutMapsIsTheSameBytesOnAnyRankCount) {
  expect_same_file_on_any_rank_count(small_sweep(engine::Storage::summary), "summary");
}

// A sweep file's `storage` text and the enum: each level's name reads back as itself; any
// other text (a capital, a space) is no level.
TEST(Engine, StorageNamesReadBackAndNothingElseIsALevel) {
  for (const auto s : {engine::Storage::full, engine::Storage::maps, engine::Storage::summary})
    EXPECT_EQ(engine::storage_from_name(engine::storage_name(s)), s);
  EXPECT_EQ(engine::storage_name(engine::Storage::summary), "summary");
  for (const char* text : {"", "Full", "maps ", "reduced"})
    EXPECT_FALSE(engine::storage_from_name(text).has_value()) << text;
}

// The table sizes the maps: status (1 byte) and memory (8) per point; full adds the limiting
// factor (1) and five times (8 each: iteration, epoch, compute, communication, framework); a
// reduced cell holds its best status and two minima.
TEST(Engine, BytesPerCellAreTheTablesTypesSummed) {
  EXPECT_EQ(engine::bytes_per_cell(engine::Storage::maps), 1 + 8);
  EXPECT_EQ(engine::bytes_per_cell(engine::Storage::full), 1 + 8 + 1 + 5 * 8);
  EXPECT_EQ(engine::bytes_per_cell(engine::Storage::summary), 1 + 8 + 8);
}

}  // namespace
}  // namespace paradise
