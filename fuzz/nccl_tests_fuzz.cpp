// libFuzzer target: nccl-tests output (paradise calibrate, calibrate::parse_nccl_tests), then
// the alpha-beta fit calibrate runs on what it read.
#include "fuzz_input.hpp"
#include "paradise/calibrate/fit.hpp"
#include "paradise/calibrate/measurements.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    const auto m = paradise::calibrate::parse_nccl_tests(in, "fuzz_all_reduce.txt");
    (void)paradise::calibrate::fit_alpha_beta(m);
  });
}
