// A memo of the paradise variant's compute per kernel call for one workload: a sweep meets
// the same per-GPU samples again and again across GPU counts and batches (B / p), and the
// per-layer roofline sum behind it does not change. Owned by the caller (one per workload
// and thread); bounded, cleared when full.
#pragma once

#include <bit>
#include <cstdint>
#include <unordered_map>

namespace paradise::strategy {

class ComputeMemo {
 public:
  struct Key {
    double call = 0, q = 0;
    double efficiency = 1;  ///< the implementation's split-layer efficiency
    std::uint8_t split = 0, precision = 0;
    int last = 0;  ///< the last parallel layer (a spatial split's), or no limit
    bool operator==(const Key&) const = default;
  };
  /// The memoised seconds for `k`, or nullptr.
  const double* find(const Key& k) const {
    const auto it = map_.find(k);
    return it == map_.end() ? nullptr : &it->second;
  }
  void put(const Key& k, double seconds) {
    if (map_.size() >= kLimit) map_.clear();
    map_.emplace(k, seconds);
  }

 private:
  static constexpr std::size_t kLimit = 1 << 16;
  struct Hash {
    // the doubles' bit patterns mixed by multiplication (std::hash<double> hashes bytes)
    std::size_t operator()(const Key& k) const {
      std::uint64_t x = std::bit_cast<std::uint64_t>(k.call) * 0x9E3779B97F4A7C15ull;
      x ^= std::bit_cast<std::uint64_t>(k.q) * 0xC2B2AE3D27D4EB4Full;
      x ^= std::bit_cast<std::uint64_t>(k.efficiency) * 0x27D4EB2F165667C5ull;
      x ^= (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.last)) << 16 |
            static_cast<std::uint64_t>(k.split) << 8 | k.precision) *
           0x165667B19E3779F9ull;
      return static_cast<std::size_t>(x ^ (x >> 29));
    }
  };
  std::unordered_map<Key, double, Hash> map_;
};

}  // namespace paradise::strategy
