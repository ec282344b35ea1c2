// Small text helpers for the parsers: trimming, splitting, checked number parsing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise {

std::string_view trim(std::string_view s);
/// Consumes a UTF-8 byte-order mark (EF BB BF: Excel's "CSV UTF-8", Notepad) at the start of
/// a text file, so that its first line reads as written; anything else is left unread.
void skip_utf8_bom(std::istream& in);
std::vector<std::string_view> split(std::string_view s, char sep);
/// The heap bytes a string holds: its buffer beyond libstdc++'s 15 inline characters.
inline std::size_t heap_bytes(const std::string& s) {
  return s.capacity() > 15 ? s.capacity() + 1 : 0;
}
std::string lower(std::string_view s);
/// Text as a terminal should show it in a message: control characters (C0, DEL, C1), a
/// bidirectional override and bytes that are not UTF-8 written \xNN (a tab \t; a newline
/// kept when keep_newlines), and past max_shown characters cut, its length in bytes said.
std::string printable(std::string_view text, bool keep_newlines = true,
                      std::size_t max_shown = std::string_view::npos);

/// The offset of the first byte of `text` that does not begin a valid UTF-8 sequence (a
/// stray or truncated byte, an overlong form, a surrogate), or npos when it is all UTF-8.
std::size_t first_invalid_utf8(std::string_view text);

/// Parses a whole decimal integer (no sign unless allow_negative); throws via fail_input.
std::int64_t parse_int(std::string_view text, const Origin& where, std::string_view key,
                       bool allow_negative = false);
/// Parses a whole floating-point number; throws via fail_input.
double parse_double(std::string_view text, const Origin& where, std::string_view key);
/// Parses "AxBxC" into positive integers; throws via fail_input.
std::vector<std::int64_t> parse_dims(std::string_view text, const Origin& where,
                                     std::string_view key);

}  // namespace paradise
