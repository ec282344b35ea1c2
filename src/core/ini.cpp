#include "paradise/core/ini.hpp"

#include <istream>

#include "paradise/core/text.hpp"

namespace paradise {

std::vector<IniSection> parse_ini(std::istream& in, const std::string& file_name) {
  std::vector<IniSection> sections;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string_view text = raw;
    if (const auto c = text.find_first_of("#;"); c != std::string_view::npos)
      text = text.substr(0, c);
    text = trim(text);
    if (text.empty()) continue;
    const Origin o{file_name, line};
    if (text.front() == '[') {
      if (text.back() != ']' || text.size() < 3) fail_input(o, "section", text, "expected [name]");
      std::string name(trim(text.substr(1, text.size() - 2)));
      if (name.empty() || name.back() == '.') fail_input(o, "section", text, "expected [name]");
      for (const auto& s : sections) {  // the last would silently win
        if (s.name == name)
          fail_input(o, "section", text,
                     "given twice (first at line " + std::to_string(s.line) + ")");
      }
      sections.push_back({std::move(name), line, {}});
      continue;
    }
    const auto eq = text.find('=');
    if (eq == std::string_view::npos) fail_input(o, "line", text, "expected key = value");
    if (sections.empty()) fail_input(o, "line", text, "entry before the first [section]");
    const std::string key(trim(text.substr(0, eq)));
    if (key.empty()) fail_input(o, "line", text, "empty key");
    for (const auto& e : sections.back().entries) {
      if (e.key == key)
        fail_input(o, key, trim(text.substr(eq + 1)), "key given twice in this section");
    }
    sections.back().entries.push_back({key, std::string(trim(text.substr(eq + 1))), line});
  }
  return sections;
}

}  // namespace paradise
