#include "paradise/core/csv.hpp"

#include <algorithm>
#include <istream>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/text.hpp"

namespace paradise {

std::optional<std::size_t> CsvTable::column(std::string_view name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) return std::nullopt;
  return static_cast<std::size_t>(it - header.begin());
}

std::vector<std::string> split_csv_line(std::string_view line, const std::string& file,
                                        int line_no) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  if (quoted) fail_input({file, line_no}, "line", line, "unterminated quoted field");
  for (auto& cell : out) cell = std::string(trim(cell));
  return out;
}

CsvTable read_csv(std::istream& in, const std::string& file) {
  CsvTable t;
  t.file = file;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    const std::string_view text = trim(raw);
    if (text.empty() || text.front() == '#') continue;
    auto cells = split_csv_line(raw, file, line);
    if (t.header.empty()) {
      t.header_line = line;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].empty())
          fail_input({file, line}, "column", std::to_string(i + 1),
                     "empty column name in the header");
        if (std::count(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(i), cells[i]) > 0)
          fail_input({file, line}, "column", cells[i], "repeated column name in the header");
      }
      t.header = std::move(cells);
      continue;
    }
    if (cells.size() != t.header.size())
      fail_input({file, line}, "line", text,
                 std::to_string(cells.size()) + " fields, the header (line " +
                     std::to_string(t.header_line) + ") has " + std::to_string(t.header.size()));
    t.rows.push_back({line, std::move(cells)});
  }
  if (t.header.empty()) fail_input({file, 0}, "", "", "no header row (an empty file?)");
  return t;
}

CsvTable read_csv_file(const std::string& path) {
  const PathStatus where = path_status(path);
  if (where.kind == PathKind::directory) throw InputError(path + ": is a directory, not a file");
  if (where.kind == PathKind::missing) throw InputError(path + ": no such file");
  std::istringstream in(read_input_file(path, "CSV file"));
  return read_csv(in, path);
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + '"';
}

}  // namespace paradise
