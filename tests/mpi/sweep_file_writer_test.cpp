// The sweep file writer over ranks: the committed file's bytes depend on its content only,
// not on how the ranks wrote it (rank count, order of the chunks, checkpoints), thanks to
// commit's canonical copy (src/io/canonical_copy.cpp). Run at 1, 2, 3, 4 and 7 ranks.
#include "paradise/io/sweep_file_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "paradise/mpi/comm.hpp"

namespace paradise {
namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A directory every rank shares: rank 0's, broadcast.
std::string shared_directory(const mpi::Comm& comm) {
  std::string dir;
  if (comm.is_root()) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "paradise-writer-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    dir = pattern;
  }
  auto bytes = comm.broadcast_bytes(std::vector<std::uint8_t>(dir.begin(), dir.end()));
  return {bytes.begin(), bytes.end()};
}

const std::vector<std::uint64_t> kDims{3, 13, 1000};  // model x gpus x batch
constexpr std::uint64_t kChunk = 1000;                // 39 chunks per variable

std::uint8_t status_at(std::uint64_t i) {
  return static_cast<std::uint8_t>((i * 7 + i / 1000) % 3);
}
double time_at(std::uint64_t i) {
  return std::sqrt(static_cast<double>(i)) * 0.37;
}

// The same content, written on `comm`. scrambled: each rank writes every size-th chunk,
// the last ones first, with a checkpoint (flush) half way; otherwise chunks in order.
void write_file(const mpi::Comm& comm, const std::string& path, bool scrambled) {
  io::SweepFileWriter out(path, comm);
  out.attribute("title", "writer test \u2014 UTF-8");  // declared UTF-8 (non-ASCII)
  out.attribute("answer", std::int64_t{42});
  out.axis("model", std::vector<std::string>{"resnet50", "vgg16", "cosmoflow"});
  std::vector<std::int64_t> gpus(kDims[1]), batch(kDims[2]);
  for (std::size_t i = 0; i < gpus.size(); ++i) gpus[i] = static_cast<std::int64_t>(i + 1);
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i] = static_cast<std::int64_t>(32 * i);
  out.axis("gpus", gpus);
  out.axis("batch", batch);
  out.variable_attribute("gpus", "units", "1");
  out.chunk_points(kChunk);
  out.variable_u8("status", "0 ok, 1 out_of_memory, 2 invalid");
  out.flag_values("status", {0, 1, 2});
  out.variable_f64("epoch_time_s", "epoch time");
  out.variable_attribute("epoch_time_s", "units", "s");
  const io::ChunkRanges ranges(kDims, kChunk);
  ASSERT_EQ(ranges.count(), 39u);
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const std::uint64_t rounds = (ranges.count() + ranks - 1) / ranks;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t c =
        scrambled ? (rounds - 1 - round) * ranks + static_cast<std::uint64_t>(comm.rank())
                  : round * ranks + static_cast<std::uint64_t>(comm.rank());
    auto [begin, end] = ranges[c];  // past the last chunk: an empty range
    std::vector<std::uint8_t> status;
    std::vector<double> times;
    for (std::uint64_t i = begin; i < end; ++i) {
      status.push_back(status_at(i));
      times.push_back(time_at(i));
    }
    out.write("status", begin, status);
    out.write("epoch_time_s", begin, times);
    if (scrambled && round == rounds / 2) out.flush();
  }
  io::SweepFileWriter::Column name{
      io::SweepFileWriter::Column::Kind::Text, "model", "model", {}, {}, {}};
  io::SweepFileWriter::Column when{
      io::SweepFileWriter::Column::Kind::Real, "epoch_time_s", "epoch time", {}, {}, {}};
  if (comm.is_root()) {
    name.text = {"vgg16", "resnet50", "cosmoflow", "resnet50"};
    when.reals = {1.5, 2.25, 3.0, 0.5};
  }
  out.table("pareto", "point", 4, {name, when});
  out.group_attribute("pareto", "group", "model");
  name.text.clear();
  when.reals.clear();
  out.table("empty", "point", 0, {name, when});  // a front without points (all infeasible)
  io::SweepFileWriter::GroupArray limits{"largest_batch", "largest batch", {"model", "gpus"}, {}};
  if (comm.is_root())
    for (std::uint64_t i = 0; i < kDims[0] * 4; ++i)
      limits.values.push_back(static_cast<std::int64_t>(i * 64));
  out.arrays("memlimit",
             {{"model", {"resnet50", "vgg16", "cosmoflow"}, {}}, {"gpus", {}, {1, 2, 4, 8}}},
             {limits});
  out.commit();
}

TEST(SweepFileWriter, SameBytesWhateverTheRanksOrderAndCheckpoints) {
  const auto comm = mpi::Comm::world();
  const std::string dir = shared_directory(comm);
  write_file(comm, dir + "/ranks.h5", true);
  if (comm.is_root()) {
    // the reference: one process, chunks in order, no checkpoint
    write_file(mpi::Comm::self(), dir + "/one.h5", false);
    EXPECT_FALSE(std::filesystem::exists(dir + "/ranks.h5.tmp"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/ranks.h5.tmp.canonical"));
    const std::string a = read_bytes(dir + "/ranks.h5"), b = read_bytes(dir + "/one.h5");
    EXPECT_GT(a.size(), 10000u);
    EXPECT_TRUE(a == b) << comm.size() << " ranks, scrambled with a checkpoint: " << a.size()
                        << " bytes vs " << b.size() << " in order on one process";
    std::filesystem::remove_all(dir);
  }
  comm.barrier();
}

}  // namespace
}  // namespace paradise
