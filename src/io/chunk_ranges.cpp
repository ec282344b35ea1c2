// The writer's chunk shape and the flat ranges of the sweep's work chunks, each made of
// whole file chunks: a compressed chunk written twice moves in the file, and parallel HDF5
// reads a chunk it does not overwrite whole, so a resumed run would read (and fail to
// inflate) what a kill left beyond the checkpoint.
#include <algorithm>

#include "paradise/io/sweep_file_writer.hpp"

namespace paradise::io {

std::vector<std::uint64_t> chunk_shape(const std::vector<std::uint64_t>& dims,
                                       std::uint64_t max_points) {
  // up to max_points points from the fastest-varying axes: whole axes, then a slice of one,
  // a divisor of it (no partial edge chunk) unless that leaves less than 1/128 of the limit
  std::vector<std::uint64_t> chunk(dims.size(), 1);
  std::uint64_t points = 1;
  // the axes outside a sliced one stay 1: each chunk is one contiguous flat range
  for (std::size_t j = dims.size();
       j-- > 0 && (j + 1 == dims.size() || chunk[j + 1] == dims[j + 1]);) {
    const std::uint64_t d = std::max<std::uint64_t>(dims[j], 1);
    const std::uint64_t most = std::clamp<std::uint64_t>(max_points / points, 1, d);
    std::uint64_t divisor = most;
    while (d % divisor != 0) --divisor;
    chunk[j] = divisor * points * 128 >= max_points ? divisor : most;
    points *= chunk[j];
  }
  return chunk;
}

ChunkRanges::ChunkRanges(const std::vector<std::uint64_t>& dims, std::uint64_t max_points) {
  const auto chunk = chunk_shape(dims, max_points);
  // the outermost axis the chunk does not take whole: chunks tile its rows in order
  std::uint64_t inner = 1, outer = 1, along = 1, per_chunk = 1;
  std::size_t k = dims.size();
  while (k > 0 && chunk[k - 1] == dims[k - 1]) inner *= dims[--k];
  if (k > 0) {
    along = dims[k - 1];
    per_chunk = chunk[k - 1];
    for (std::size_t j = 0; j + 1 < k; ++j) outer *= dims[j];
  }
  row_ = along * inner;
  span_ = per_chunk * inner;
  per_row_ = row_ == 0 ? 0 : (along + per_chunk - 1) / per_chunk;
  chunks_ = outer * per_row_;
  total_ = outer * row_;
  // consecutive file chunks together up to max_points points
  group_ = std::max<std::uint64_t>(1, span_ == 0 ? 1 : max_points / span_);
  count_ = (chunks_ + group_ - 1) / group_;
}

std::pair<std::uint64_t, std::uint64_t> ChunkRanges::operator[](std::uint64_t c) const {
  if (c >= count_) return {total_, total_};
  const auto begin_of = [&](std::uint64_t i) { return i / per_row_ * row_ + i % per_row_ * span_; };
  const std::uint64_t first = c * group_, last = std::min(first + group_, chunks_) - 1;
  return {begin_of(first), std::min(begin_of(last) + span_, (last / per_row_ + 1) * row_)};
}

}  // namespace paradise::io
