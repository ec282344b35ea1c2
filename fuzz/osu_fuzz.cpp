// libFuzzer target: OSU micro-benchmarks output (paradise calibrate, calibrate::parse_osu),
// without a rank count (point-to-point tests) and at 8 ranks (collectives need one), then the
// alpha-beta fit calibrate runs on what it read.
#include "fuzz_input.hpp"
#include "paradise/calibrate/fit.hpp"
#include "paradise/calibrate/measurements.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const std::int64_t ranks : {0, 8}) {
    paradise::fuzz::parse_stream(data, size, [ranks](std::istream& in) {
      const auto m = paradise::calibrate::parse_osu(in, "fuzz_osu.txt", ranks);
      (void)paradise::calibrate::fit_alpha_beta(m);
    });
  }
  return 0;
}
