#include "paradise/core/ini.hpp"

#include <istream>

#include "paradise/core/text.hpp"

namespace paradise {
namespace {

std::string_view trim_of(std::string_view s, std::string_view blanks) {
  const auto first = s.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

// A system file's section header: "[name]", the name neither empty nor ending in '.'.
std::string section_name(const IniLine& l, const Origin& o) {
  if (l.kind != IniLine::Kind::section || l.name.empty() || l.name.back() == '.')
    fail_input(o, "section", l.text, "expected [name]");
  return std::string(l.name);
}

}  // namespace

IniLine read_ini_line(std::string_view line, const IniSyntax& syntax) {
  IniLine l;
  const std::string_view uncommented = line.substr(0, line.find_first_of(syntax.comment_starts));
  l.text = trim_of(uncommented, syntax.blanks);
  if (l.text.empty()) return l;
  const std::string_view bracketed = trim(uncommented);
  if (bracketed.size() >= 2 && bracketed.front() == '[' && bracketed.back() == ']') {
    l.kind = IniLine::Kind::section;
    l.name = trim(bracketed.substr(1, bracketed.size() - 2));
    return l;
  }
  const auto eq = l.text.find('=');
  if (eq == std::string_view::npos) {
    l.kind = IniLine::Kind::other;
    return l;
  }
  l.kind = IniLine::Kind::entry;
  l.name = trim_of(l.text.substr(0, eq), syntax.blanks);
  l.value = trim_of(l.text.substr(eq + 1), syntax.blanks);
  return l;
}

std::vector<IniSection> parse_ini(std::istream& in, const std::string& file_name) {
  std::vector<IniSection> sections;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const IniLine l = read_ini_line(raw, kSystemIniSyntax);
    if (l.kind == IniLine::Kind::blank) continue;
    const Origin o{file_name, line};
    if (l.text.front() == '[') {
      std::string name = section_name(l, o);
      for (const auto& s : sections) {  // the last would silently win
        if (s.name == name)
          fail_input(o, "section", l.text,
                     "given twice (first at line " + std::to_string(s.line) + ")");
      }
      sections.push_back({std::move(name), line, {}});
      continue;
    }
    if (l.kind != IniLine::Kind::entry) fail_input(o, "line", l.text, "expected key = value");
    if (sections.empty()) fail_input(o, "line", l.text, "entry before the first [section]");
    const std::string key(l.name);
    if (key.empty()) fail_input(o, "line", l.text, "empty key");
    for (const auto& e : sections.back().entries) {
      if (e.key == key) fail_input(o, key, l.value, "key given twice in this section");
    }
    sections.back().entries.push_back({key, std::string(l.value), line});
  }
  return sections;
}

std::vector<IniDottedEntry> parse_dotted_ini(std::istream& in, const std::string& file_name) {
  std::vector<IniDottedEntry> entries;
  std::string raw, prefix;  // prefix: "section." as Boost joins it to each key
  int line = 0, first_suspect = 0;
  std::string suspect_text;  // the first line that is malformed or leaves a bracket open
  bool malformed = false;
  while (std::getline(in, raw)) {
    ++line;
    const IniLine l = read_ini_line(raw, kSweepIniSyntax);
    if (l.kind == IniLine::Kind::blank) continue;
    const bool suspect =
        l.text.front() == '[' ? l.text.back() != ']' : l.text.find('=') == std::string_view::npos;
    if (suspect && first_suspect == 0) {
      first_suspect = line;
      suspect_text = trim_of(raw, kSweepIniSyntax.blanks);
    }
    malformed = malformed || l.kind == IniLine::Kind::other;
    if (l.kind == IniLine::Kind::section) {
      prefix = std::string(l.name);
      if (!prefix.ends_with('.')) prefix += '.';
    } else if (l.kind == IniLine::Kind::entry) {
      entries.push_back({prefix + std::string(l.name), prefix.substr(0, prefix.size() - 1),
                         std::string(l.value), line});
    }
  }
  // the whole file is read first: a malformed line anywhere is said before any other error
  if (malformed)
    fail_input({file_name, first_suspect}, "line", suspect_text,
               "expected [section], key = value, a # comment or a blank line");
  return entries;
}

}  // namespace paradise
