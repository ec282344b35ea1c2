// libFuzzer target: measured-runs CSV files (paradise validate, validate::read_runs).
#include "fuzz_input.hpp"
#include "paradise/validate/validate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(
      data, size, [](std::istream& in) { (void)paradise::validate::read_runs(in, "fuzz.csv"); });
}
