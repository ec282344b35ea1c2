// A sweep file's text and its INI entries, every key known, given once and the required ones
// given (sweep_file_entries.cpp); the values are read in sweep_file.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "paradise/core/error.hpp"
#include "paradise/core/ini.hpp"

namespace paradise::sweep::detail {

/// The sweep file's text: refused when it is missing, not UTF-8 or too long to store.
std::string read_sweep_text(const std::string& path);
/// Refuses a sweep file's text that is not UTF-8 or too long to store (read_sweep_text's
/// checks, for text read elsewhere).
void check_sweep_text(const std::string& path, const std::string& text);

/// The entries of a sweep file's known sections, each key at most once, and its
/// [layer_times] entries in file order.
class SweepEntries {
 public:
  /// Refuses, in this order, a malformed line, an unknown key or section (or a [layer_times]
  /// key given twice), a known key given twice, a required key missing.
  SweepEntries(const std::string& path, const std::string& text);

  bool has(std::string_view name) const { return find(name) != nullptr; }
  /// The value of "section.key" as written (trimmed); `fallback` when absent.
  std::string value(std::string_view name, const std::string& fallback = "") const;
  /// Where "section.key" is set: its line, or the file alone when absent.
  Origin at(std::string_view name) const;
  const std::vector<IniDottedEntry>& layer_times() const { return layer_times_; }
  /// The [convergence] entries (MODEL or MODEL@DATASET = E_MIN[:NOISE_BATCH]), in file order.
  const std::vector<IniDottedEntry>& convergence() const { return convergence_; }

 private:
  const IniDottedEntry* find(std::string_view name) const;
  std::string path_;
  std::vector<IniDottedEntry> known_, layer_times_, convergence_;
};

}  // namespace paradise::sweep::detail
