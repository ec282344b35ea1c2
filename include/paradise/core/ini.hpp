// A line-numbered INI reader for system files: "[section]" headers, "key = value"
// entries, "#" or ";" comments. Errors name the file and line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise {

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

std::vector<IniSection> parse_ini(std::istream& in, const std::string& file_name);

}  // namespace paradise
