// The maps' chunking and the sweep's work ranges: each file chunk is one contiguous flat range
// and lies whole in one work range (written once: a resumed run never reads a chunk that a
// kill left half-written), the ranges tile the array in order.
#include <gtest/gtest.h>

#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {
namespace {

using Dims = std::vector<std::uint64_t>;

// Hand-derived shapes (64 Ki points): whole fastest axes, then a divisor of the next one.
TEST(ChunkShape, WholeFastAxesThenADivisorOfTheNext) {
  // 1000 x 1000: 65 rows would leave a partial edge chunk; 50 divides 1000
  EXPECT_EQ(chunk_shape({2, 1, 2, 6, 1000, 1000}, 65536), (Dims{1, 1, 1, 1, 50, 1000}));
  // 997 is prime: one row of 1000 points (>= 64 Ki / 128), the outer axes 1
  EXPECT_EQ(chunk_shape({2, 2, 6, 997, 1000}, 65536), (Dims{1, 1, 1, 1, 1000}));
  // small axes whole up to the limit: 8 x 64 x 128 = 65,536
  EXPECT_EQ(chunk_shape({3, 8, 64, 128}, 65536), (Dims{1, 8, 64, 128}));
  // a prime fastest axis above the limit: divisor 1 is too small, 65,536 with an edge chunk
  EXPECT_EQ(chunk_shape({4, 100003}, 65536), (Dims{1, 65536}));
}

// Every chunk of the chunk grid, as flat [begin, end), must fall in exactly one range, and
// the ranges must tile [0, total) in order.
void expect_whole_chunks(const Dims& dims, std::uint64_t max_points) {
  const auto chunk = chunk_shape(dims, max_points);
  const ChunkRanges ranges(dims, max_points);
  std::uint64_t total = 1;
  for (auto d : dims) total *= d;
  std::vector<std::uint64_t> range_of(total, ~std::uint64_t{0});
  std::uint64_t next = 0;
  for (std::uint64_t c = 0; c < ranges.count(); ++c) {
    const auto [b, e] = ranges[c];
    ASSERT_EQ(b, next) << "range " << c;
    ASSERT_GT(e, b);
    for (std::uint64_t i = b; i < e; ++i) range_of[i] = c;
    next = e;
  }
  ASSERT_EQ(next, total);
  EXPECT_EQ(ranges[ranges.count()], std::make_pair(total, total));
  // walk each chunk's elements: one range for all of them
  std::vector<std::uint64_t> start(dims.size(), 0);
  for (;;) {
    std::vector<std::uint64_t> idx(start);
    std::uint64_t owner = ~std::uint64_t{0};
    for (;;) {
      std::uint64_t flat = 0;
      for (std::size_t j = 0; j < dims.size(); ++j) flat = flat * dims[j] + idx[j];
      if (owner == ~std::uint64_t{0}) owner = range_of[flat];
      ASSERT_EQ(range_of[flat], owner) << "a chunk split between work ranges";
      std::size_t j = dims.size();
      while (j-- > 0) {
        if (++idx[j] < std::min(start[j] + chunk[j], dims[j])) break;
        idx[j] = start[j];
      }
      if (j == static_cast<std::size_t>(-1)) break;
    }
    std::size_t j = dims.size();
    while (j-- > 0) {
      start[j] += chunk[j];
      if (start[j] < dims[j]) break;
      start[j] = 0;
    }
    if (j == static_cast<std::size_t>(-1)) break;
  }
}

TEST(ChunkRanges, WorkRangesHoldWholeChunksAndTileTheArray) {
  for (const auto& [dims, limit] :
       std::vector<std::pair<Dims, std::uint64_t>>{{{2, 6, 1000, 1000}, 65536},
                                                   {{2, 6, 997, 1000}, 65536},
                                                   {{3, 7, 11, 13}, 64},
                                                   {{5, 100003}, 65536},
                                                   {{4, 9, 10}, 7},
                                                   {{1}, 65536},
                                                   {{6, 1, 5}, 2}}) {
    SCOPED_TRACE(::testing::PrintToString(dims) + " limit " + std::to_string(limit));
    expect_whole_chunks(dims, limit);
  }
}

TEST(ChunkRanges, AnEmptyAxisHasNoRanges) {
  EXPECT_EQ(ChunkRanges({3, 0, 4}, 65536).count(), 0u);
}

}  // namespace
}  // namespace paradise::io
