// The one INI reader, for system and sweep files: "[section]" headers, "key = value" entries,
// comments and blank lines, every entry with its line. Errors name the file and line.
//
// Two dialects share the line reader (read_ini_line):
//  - system files (parse_ini): "#" or ";" comments, any white space trimmed; each section
//    given once, each key once per section, no entry before the first section;
//  - sweep files (parse_dotted_ini): the syntax of Boost.Program_options' config files, which
//    read them first: "#" comments only, " \t\r\n" trimmed, every entry named
//    "section.key", sections and keys given any number of times (the caller decides).
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise {

/// What a dialect cuts from a line: a comment from any of `comment_starts` on, then
/// `blanks` around the line, a key and a value. A section's brackets and name are always
/// trimmed of any white space ("[ sweep ]" is [sweep]).
struct IniSyntax {
  std::string_view comment_starts;
  std::string_view blanks;
};
inline constexpr IniSyntax kSystemIniSyntax{"#;", " \t\n\v\f\r"};
inline constexpr IniSyntax kSweepIniSyntax{"#", " \t\r\n"};

/// One line as a dialect reads it: blank (or a comment), "[name]", "key = value", or other.
struct IniLine {
  enum class Kind { blank, section, entry, other };
  Kind kind = Kind::blank;
  std::string_view text;   ///< the line without its comment, trimmed of blanks
  std::string_view name;   ///< a section's name or an entry's key, trimmed
  std::string_view value;  ///< an entry's value, trimmed
};
IniLine read_ini_line(std::string_view line, const IniSyntax& syntax);

struct IniEntry {
  std::string key;
  std::string value;
  int line = 0;
};

struct IniSection {
  std::string name;
  int line = 0;
  std::vector<IniEntry> entries;
};

/// A system file's sections in file order; refuses a malformed line, a section given twice,
/// an entry before the first section, an empty key and a key given twice in a section.
std::vector<IniSection> parse_ini(std::istream& in, const std::string& file_name);

/// An entry of a sweep file, named as Boost.Program_options named it: "section.key" (a
/// section ending in '.' adds none; a key before any section is its own name).
struct IniDottedEntry {
  std::string name;     ///< "section.key"
  std::string section;  ///< the name's section part: "" before any section, "x" for [x.]
  std::string value;
  int line = 0;
};

/// A sweep file's entries in file order, repeated ones included. Refuses the file when a
/// line is neither blank, "[section]" nor "key = value"; the error names the first line that
/// is malformed or opens a bracket it does not close.
std::vector<IniDottedEntry> parse_dotted_ini(std::istream& in, const std::string& file_name);

}  // namespace paradise
