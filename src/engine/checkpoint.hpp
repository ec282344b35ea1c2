// The checkpoint beside a sweep's temporary output (OUT.h5.resume): how many work chunks
// are complete and the merged summary (counts, bests, Pareto candidates) of those chunks.
// Written by rank 0 under a temporary name and renamed, so it is whole or absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace paradise::engine {

struct Checkpoint {
  std::string sweep_text;             ///< the sweep file it belongs to (checked on resume)
  std::string layout;                 ///< storage, reduction and chunking it was written with
  std::uint64_t chunks_done = 0;      ///< chunks [0, chunks_done) are in the file
  std::vector<std::uint8_t> summary;  ///< sweep::Summary bytes of those chunks
};

std::string checkpoint_path(const std::string& output);
/// Throws io-free std::runtime_error naming the path when it cannot be written.
void write_checkpoint(const std::string& output, const Checkpoint& c);
/// nullopt when there is none; throws InputError naming the path when it is damaged.
std::optional<Checkpoint> read_checkpoint(const std::string& output);
void remove_checkpoint(const std::string& output);

/// What else the results depend on, for the checkpoint's layout: paradise's version and a
/// digest (FNV-1a) of each model, system and layer-times file the sweep names, so that a
/// resume after an edit of one (or an update) is refused, not mixed with the new results.
std::string input_fingerprint(const std::vector<std::string>& files);

}  // namespace paradise::engine
