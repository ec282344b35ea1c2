// The hyperslab decomposition behind collective writes of contiguous point ranges.
#include <gtest/gtest.h>

#include <random>

#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {
namespace {

// Marks every element a slab selects; each element of [begin, end) once, nothing else.
void expect_exact_cover(const std::vector<std::uint64_t>& dims, std::uint64_t begin,
                        std::uint64_t end) {
  std::uint64_t total = 1;
  for (auto d : dims) total *= d;
  std::vector<int> hits(total, 0);
  const auto slabs = cover_range(dims, begin, end);
  EXPECT_LE(slabs.size(), 2 * dims.size() - 1);
  for (const auto& s : slabs) {
    std::vector<std::uint64_t> idx(s.start);
    for (;;) {  // odometer over the slab
      std::uint64_t flat = 0;
      for (std::size_t j = 0; j < dims.size(); ++j) flat = flat * dims[j] + idx[j];
      ++hits[flat];
      std::size_t j = dims.size();
      while (j-- > 0) {
        if (++idx[j] < s.start[j] + s.count[j]) break;
        idx[j] = s.start[j];
      }
      if (j == static_cast<std::size_t>(-1)) break;
    }
  }
  for (std::uint64_t i = 0; i < total; ++i) {
    ASSERT_EQ(hits[i], (i >= begin && i < end) ? 1 : 0)
        << "element " << i << " of [" << begin << ", " << end << ")";
  }
}

TEST(CoverRange, EveryRangeOfSmallArraysIsCoveredExactlyOnce) {
  for (const auto& dims :
       std::vector<std::vector<std::uint64_t>>{{7}, {3, 4}, {2, 3, 4}, {4, 1, 2, 3, 5, 7}}) {
    std::uint64_t total = 1;
    for (auto d : dims) total *= d;
    for (std::uint64_t b = 0; b <= total; b += (total > 200 ? 13 : 1)) {
      for (std::uint64_t e = b; e <= total; e += (total > 200 ? 17 : 1))
        expect_exact_cover(dims, b, e);
    }
  }
}

TEST(CoverRange, RandomRangesOfTheQuickstartGrid) {
  const std::vector<std::uint64_t> dims{4, 2, 2, 6, 11, 7};  // sweeps/quickstart.ini
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> pick(0, 7392);
  for (int t = 0; t < 200; ++t) {
    auto a = pick(rng), b = pick(rng);
    if (a > b) std::swap(a, b);
    expect_exact_cover(dims, a, b);
  }
}

}  // namespace
}  // namespace paradise::io
