#include "paradise/core/table.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "paradise/core/text.hpp"

namespace paradise {

void TextTable::add_column(std::string header, Align align) {
  headers_.push_back(std::move(header));
  aligns_.push_back(align);
}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) throw std::logic_error("TextTable: row width mismatch");
  // a cell from an input file (a model's or layer's name) reaches a terminal: its control
  // characters are written \xNN (issue 35: an escape sequence was printed raw)
  for (auto& cell : cells) cell = printable(cell, false);
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      if (c > 0) out << "  ";
      if (aligns_[c] == Align::Right) {
        out << pad << cells[c];
      } else {
        out << cells[c] << (c + 1 < cells.size() ? pad : "");
      }
    }
    out << '\n';
  };
  line(headers_);
  std::vector<std::string> rule;
  rule.reserve(width.size());
  for (std::size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : rows_) line(row);
}

std::string with_commas(std::int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string gpus_text(std::int64_t gpus) {
  return with_commas(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string fixed_or_exponent(double v, int decimals) {
  if (!(std::abs(v) >= 1e6)) return fixed(v, decimals);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string human_bytes(double bytes) {
  static const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 5) {
    bytes /= 1000.0;
    ++u;
  }
  return fixed(bytes, u == 0 ? 0 : 2) + " " + units[u];
}

}  // namespace paradise
