// libFuzzer target: ParaDL network files (*.net, model::parse_paradl_net).
#include "fuzz_input.hpp"
#include "paradise/model/paradl_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    const auto net = paradise::model::parse_paradl_net(in, "fuzz.net");
    (void)net.measured_time_per_sample_s();
  });
}
