// libFuzzer target: layer-times CSV files (input::parse_layer_times).
#include "fuzz_input.hpp"
#include "paradise/input/layer_times.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    (void)paradise::input::parse_layer_times(in, "fuzz.csv");
  });
}
