#include "paradise/sweep/grid.hpp"

#include <charconv>
#include <limits>

#include "paradise/core/text.hpp"

namespace paradise::sweep {

std::string Axis::text(std::uint64_t i) const {
  if (categorical()) return labels[i];
  if (!real()) return std::to_string(values[i]);
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, reals[i]);  // shortest round trip
  return std::string(buf, r.ptr);
}

Grid::Grid(std::vector<Axis> axes) : axes_(std::move(axes)) {
  for (const auto& a : axes_) {
    if (a.size() == 0) throw InputError("sweep axis '" + a.name + "' is empty");
    if (points_ > std::numeric_limits<std::uint64_t>::max() / a.size()) {
      throw InputError("the sweep grid has more than 2^64 points (overflow at axis '" + a.name +
                       "' of " + std::to_string(a.size()) + " values)");
    }
    points_ *= a.size();
  }
}

void Grid::decode(std::uint64_t index, std::vector<std::uint64_t>& coords) const {
  coords.resize(axes_.size());
  for (std::size_t i = axes_.size(); i-- > 0;) {
    const std::uint64_t n = axes_[i].size();
    coords[i] = index % n;
    index /= n;
  }
}

std::uint64_t Grid::encode(const std::vector<std::uint64_t>& coords) const {
  std::uint64_t index = 0;
  for (std::size_t i = 0; i < axes_.size(); ++i) index = index * axes_[i].size() + coords[i];
  return index;
}

std::vector<std::int64_t> parse_int_values(std::string_view text, const Origin& where,
                                           std::string_view key) {
  constexpr std::int64_t kMaxValues = 1'000'000;  // one axis; the grid is their product
  std::vector<std::int64_t> out;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    if (item.empty()) fail_input(where, key, text, "empty entry in the list");
    const auto dots = item.find("..");
    if (dots == std::string_view::npos) {
      out.push_back(parse_int(item, where, key));
      continue;
    }
    // a part that is no whole number is said with the whole range (it quoted '-1' of
    // "1..4 +-1")
    const auto whole = [&](std::string_view part) {
      try {
        return parse_int(part, where, key);
      } catch (const InputError&) {
        if (trim(part).empty())
          fail_input(where, key, item, "a bound or the step is missing: A..B *F or A..B +S");
        fail_input(
            where, key, item,
            "'" + std::string(trim(part)) +
                "' is not a whole number from 0 to 2^63 - 1: a range is A..B *F or A..B +S in "
                "whole numbers");
      }
    };
    const std::int64_t lo = whole(item.substr(0, dots));
    std::string_view rest = trim(item.substr(dots + 2));
    const auto op = rest.find_first_of("*+");
    if (op == std::string_view::npos)
      fail_input(where, key, item, "a range needs a step: A..B *F or A..B +S");
    const std::int64_t hi = whole(rest.substr(0, op));
    const std::int64_t step = whole(rest.substr(op + 1));
    if (hi < lo) fail_input(where, key, item, "the range ends below its start");
    const bool geometric = rest[op] == '*';
    if (geometric ? (step < 2 || lo < 1) : step < 1) {
      fail_input(where, key, item,
                 geometric ? "a geometric range needs a start >= 1 and a factor >= 2"
                           : "the step must be >= 1");
    }
    for (std::int64_t v = lo; v <= hi; v = geometric ? v * step : v + step) {
      out.push_back(v);
      if (static_cast<std::int64_t>(out.size()) > kMaxValues)
        fail_input(where, key, item, "more than 1,000,000 values on one axis");
      if (geometric ? v > hi / step : v > hi - step) break;
    }
  }
  return out;
}

std::vector<double> parse_positive_real_values(std::string_view text, const Origin& where,
                                               std::string_view key) {
  std::vector<double> out;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    if (item.empty()) fail_input(where, key, text, "empty entry in the list");
    if (item.find("..") != std::string_view::npos) {  // a range: integers
      for (const std::int64_t v : parse_int_values(item, where, key)) {
        if (v < 1) fail_input(where, key, item, "every value must be > 0");
        out.push_back(static_cast<double>(v));
      }
    } else {
      out.push_back(parse_double(item, where, key));
      if (!(out.back() > 0)) fail_input(where, key, item, "every value must be > 0");
    }
  }
  return out;
}

std::vector<std::string> parse_names(std::string_view text, const Origin& where,
                                     std::string_view key) {
  std::vector<std::string> out;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    if (item.empty()) fail_input(where, key, text, "empty entry in the list");
    out.emplace_back(item);
  }
  return out;
}

Range block_of(std::uint64_t points, int rank, int ranks) {
  const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t base = points / n, extra = points % n;
  const std::uint64_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

}  // namespace paradise::sweep
