// libFuzzer target: sweep files (sweep::parse_sweep_file, the text read_sweep_file reads).
#include "fuzz_input.hpp"
#include "paradise/sweep/sweep_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)paradise::sweep::parse_sweep_file(paradise::fuzz::as_text(data, size), "fuzz.ini");
  } catch (const paradise::InputError&) {  // the parser refused the input
  }
  return 0;
}
