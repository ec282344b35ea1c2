#include "paradise/sweep/checks.hpp"

#include <algorithm>

namespace paradise::sweep {

std::optional<std::int64_t> first_below_one(const std::vector<std::int64_t>& values) {
  const auto bad = std::find_if(values.begin(), values.end(), [](std::int64_t v) { return v < 1; });
  if (bad == values.end()) return std::nullopt;
  return *bad;
}

std::string paradl_policy_refusal(std::string_view choose_paradise) {
  return "a policy of the paradise variant; the paradl variant reproduces ParaDL, which has "
         "none (drop it, or " +
         std::string(choose_paradise) + ")";
}

}  // namespace paradise::sweep
