// Plain-text tables for people: columns sized to their content, numbers right-aligned.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace paradise {

class TextTable {
 public:
  enum class Align { Left, Right };
  void add_column(std::string header, Align align = Align::Right);
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<Align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

/// 25557032 -> "25,557,032".
std::string with_commas(std::int64_t v);
/// 1 -> "1 GPU", 1024 -> "1,024 GPUs".
std::string gpus_text(std::int64_t gpus);
/// Fixed-point with the given decimals.
std::string fixed(double v, int decimals);
/// fixed(), or 3 significant digits in exponent form ("-1e+300") from a million on.
std::string fixed_or_exponent(double v, int decimals);
/// Bytes as "15.43 GB" (decimal units, as GPU vendors state capacities).
std::string human_bytes(double bytes);

}  // namespace paradise
