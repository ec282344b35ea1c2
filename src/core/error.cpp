#include "paradise/core/error.hpp"

namespace paradise {

namespace {

// The length of the valid UTF-8 sequence at s[i] (0 if none: a stray or truncated byte).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const std::size_t n = b < 0x80         ? 1
                        : (b >> 5) == 6  ? 2
                        : (b >> 4) == 14 ? 3
                        : (b >> 3) == 30 ? 4
                                         : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  return n;
}

// A value as a message quotes it: control characters and bytes that are not UTF-8 as \xNN,
// and past kShown characters cut with its length said (a binary file's "line" was echoed whole).
std::string quoted_value(std::string_view v) {
  constexpr std::size_t kShown = 160;  // characters written, escapes included
  std::string out;
  std::size_t i = 0;
  for (; i < v.size() && out.size() < kShown;) {
    const auto b = static_cast<unsigned char>(v[i]);
    const std::size_t n = utf8_length(v, i);
    if (n == 0 || b < 0x20 || b == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += b == '\t' ? std::string("\\t") : std::string{'\\', 'x', kHex[b >> 4], kHex[b & 15]};
      ++i;
    } else {
      out.append(v.substr(i, n));
      i += n;
    }
  }
  if (i < v.size()) out += "... (" + std::to_string(v.size()) + " bytes)";
  return out;
}

std::string input_message(const Origin& where, std::string_view key, std::string_view value,
                          std::string_view what) {
  std::string msg;
  if (!where.file.empty()) {
    msg += where.file;
    if (where.line > 0) msg += ":" + std::to_string(where.line);
    msg += ": ";
  }
  if (!key.empty()) {
    msg += std::string(key);
    msg += " '";
    msg += quoted_value(value);
    msg += "': ";
  }
  msg += std::string(what);
  return msg;
}

}  // namespace

void fail_input(const Origin& where, std::string_view key, std::string_view value,
                std::string_view what) {
  throw InputError(input_message(where, key, value, what));
}

void fail_too_large(const Origin& where, std::string_view key, std::string_view value,
                    std::string_view what) {
  throw SizeLimitError(input_message(where, key, value, what));
}

}  // namespace paradise
