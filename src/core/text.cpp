#include "paradise/core/text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace paradise {

void skip_utf8_bom(std::istream& in) {
  static constexpr char bom[] = "\xEF\xBB\xBF";
  for (int k = 0; k < 3; ++k) {
    if (in.peek() != static_cast<unsigned char>(bom[k])) {
      for (int back = k; back > 0; --back) in.unget();  // not a mark: the bytes stay
      return;
    }
    in.get();
  }
}

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::int64_t parse_int(std::string_view text, const Origin& where, std::string_view key,
                       bool allow_negative) {
  const std::string_view t = trim(text);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec == std::errc::result_out_of_range) {
    fail_input(where, key, text, t.empty() ? "expected an integer" : "integer out of range");
  }
  if (ec != std::errc() || end != t.data() + t.size()) {
    fail_input(where, key, text, "expected an integer");
  }
  if (!allow_negative && v < 0) fail_input(where, key, text, "must not be negative");
  return v;
}

double parse_double(std::string_view text, const Origin& where, std::string_view key) {
  const std::string_view t = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
    fail_input(where, key, text, "expected a finite number");
  }
  return v;
}

std::vector<std::int64_t> parse_dims(std::string_view text, const Origin& where,
                                     std::string_view key) {
  std::vector<std::int64_t> dims;
  for (std::string_view part : split(trim(text), 'x')) {
    const std::int64_t d = parse_int(part, where, key);
    if (d <= 0) fail_input(where, key, text, "every dimension must be positive");
    dims.push_back(d);
  }
  return dims;
}

}  // namespace paradise
