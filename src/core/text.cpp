#include "paradise/core/text.hpp"

#include <algorithm>
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

namespace {

// The length of the valid UTF-8 sequence at s[i] (0 if none: a stray or truncated byte, an
// overlong form or a surrogate).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const std::size_t n = b < 0x80                ? 1
                        : b >= 0xc2 && b < 0xe0 ? 2
                        : (b >> 4) == 0xe       ? 3
                        : b >= 0xf0 && b < 0xf5 ? 4
                                                : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  if (n < 3) return n;
  std::uint32_t cp = b & (n == 3 ? 0x0fu : 0x07u);
  for (std::size_t k = 1; k < n; ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3fu);
  const bool overlong = cp < (n == 3 ? 0x800u : 0x10000u);
  if (overlong || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) return 0;
  return n;
}

// A code point a terminal acts on instead of showing: C1 controls (U+0080..9F) and the
// bidirectional embeddings, overrides and isolates (U+202A..202E, U+2066..2069).
bool invisible_control(std::string_view s, std::size_t i, std::size_t n) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (n == 2) return b0 == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0;
  if (n != 3 || b0 != 0xe2) return false;
  const auto b1 = static_cast<unsigned char>(s[i + 1]), b2 = static_cast<unsigned char>(s[i + 2]);
  return (b1 == 0x80 && b2 >= 0xaa && b2 <= 0xae) || (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9);
}

}  // namespace

std::string printable(std::string_view text, bool keep_newlines, std::size_t max_shown) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t i = 0, shown = 0;
  for (; i < text.size() && shown < max_shown; ++shown) {
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t n = utf8_length(text, i);
    if (b == '\n' && keep_newlines) {
      out += '\n';
      ++i;
    } else if (b == '\t') {
      out += "\\t";
      ++i;
    } else if (n == 0 || b < 0x20 || b == 0x7f || invisible_control(text, i, n)) {
      for (std::size_t k = 0; k < std::max<std::size_t>(n, 1); ++k, ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
      }
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  if (i < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string_view trim(std::string_view s) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
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
    std::int64_t d = 0;
    try {
      d = parse_int(part, where, key);
    } catch (const InputError&) {  // the whole shape quoted, not the fragment ('-5')
      fail_input(where, key, text,
                 "'" + std::string(trim(part)) + "' is not a whole number: expected sizes AxBxC");
    }
    if (d <= 0) fail_input(where, key, text, "every dimension must be positive");
    dims.push_back(d);
  }
  return dims;
}

}  // namespace paradise
