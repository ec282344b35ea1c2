// The hyperslabs that cover a flat range of a row-major array (collective partial writes).
#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {

std::vector<Slab> cover_range(const std::vector<std::uint64_t>& dims, std::uint64_t begin,
                              std::uint64_t end) {
  std::vector<Slab> out;
  const std::size_t k = dims.size();
  std::vector<std::uint64_t> stride(k, 1);
  for (std::size_t j = k - 1; j-- > 0;) stride[j] = stride[j + 1] * dims[j + 1];
  // One slab of whole dimension-L slices [a, b) inside a single dimension-(L-1) slice.
  const auto slab = [&](std::size_t level, std::uint64_t a, std::uint64_t b) {
    Slab s{std::vector<std::uint64_t>(k, 0), std::vector<std::uint64_t>(k, 1)};
    for (std::size_t j = 0; j < level; ++j) s.start[j] = (a / stride[j]) % dims[j];
    s.start[level] = (a / stride[level]) % dims[level];
    s.count[level] = (b - a) / stride[level];
    for (std::size_t j = level + 1; j < k; ++j) s.count[j] = dims[j];
    out.push_back(std::move(s));
  };
  // [a, b) are multiples of stride[level]: a head and a tail inside single slices of the
  // level above, the aligned middle one level up (at most 2k-1 slabs in all).
  const auto cover = [&](auto&& self, std::size_t level, std::uint64_t a, std::uint64_t b) -> void {
    if (a >= b) return;
    if (level == 0) return slab(0, a, b);
    const std::uint64_t up = stride[level - 1];
    const std::uint64_t head_end = (a + up - 1) / up * up, tail_begin = b / up * up;
    if (head_end > tail_begin) return slab(level, a, b);  // inside one slice
    if (a < head_end) slab(level, a, head_end);
    self(self, level - 1, head_end, tail_begin);
    if (tail_begin < b) slab(level, tail_begin, b);
  };
  if (k > 0) cover(cover, k - 1, begin, end);
  return out;
}

}  // namespace paradise::io
