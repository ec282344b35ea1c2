// A line-numbered CSV reader (RFC 4180 quoting on one line) for measurement files: a header
// row, then data rows; blank lines and lines starting with '#' are skipped anywhere.
// Errors name the file and line.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace paradise {

struct CsvRow {
  int line = 0;  ///< 1-based line in the file
  std::vector<std::string> cells;
};

struct CsvTable {
  std::string file;
  int header_line = 0;
  std::vector<std::string> header;  ///< trimmed column names
  std::vector<CsvRow> rows;         ///< each with header.size() cells (trimmed)
  /// The index of a column, if the header has it.
  std::optional<std::size_t> column(std::string_view name) const;
};

/// Splits one CSV line into fields ("a,""b"",c" quoting); throws InputError naming
/// file:line for an unterminated quote.
std::vector<std::string> split_csv_line(std::string_view line, const std::string& file,
                                        int line_no);

/// One field as RFC 4180 writes it: quoted (with "" for ") if it holds a comma, a quote or a
/// line break, else as it is; split_csv_line reads it back.
std::string csv_field(std::string_view text);

/// Reads a whole CSV file: a row with a different number of fields than the header, an empty
/// or repeated column name, or a file without a header is an InputError naming file:line.
CsvTable read_csv(std::istream& in, const std::string& file);
/// The same from a path; a file that cannot be opened is an InputError.
CsvTable read_csv_file(const std::string& path);

}  // namespace paradise
