// The checks a sweep shares with the command line, in one place each: GPU counts and batches
// of at least 1, and the paradl variant's training settings (ParaDL models fp32 and none of
// the paradise variant's policies). Callers say where the value came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/strategy/config.hpp"

namespace paradise::sweep {

/// The first value below 1 in a list of GPU counts or batches, if any.
std::optional<std::int64_t> first_below_one(const std::vector<std::int64_t>& values);

/// Whether the paradl variant takes a precision: it reproduces ParaDL, which models fp32.
inline bool paradl_takes(strategy::Precision p) {
  return p == strategy::Precision::Fp32;
}
inline constexpr std::string_view kParadlFp32Only = "the paradl variant models fp32 only";

/// Why the paradl variant refuses a policy of the paradise variant; `choose_paradise` says
/// how to choose that one ("variant = paradise", "--variant paradise").
std::string paradl_policy_refusal(std::string_view choose_paradise);

}  // namespace paradise::sweep
