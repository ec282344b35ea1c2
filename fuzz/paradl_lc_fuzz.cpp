// libFuzzer target: ParaDL layer configurations (*.lc, model::parse_layer_config) against
// the AlexNet network of tests/data/paradl (whose .lc files are in the seed corpus).
#include "fuzz_input.hpp"
#include "paradise/model/paradl_files.hpp"

namespace {

const paradise::model::ParaDlNet& alexnet() {
  static const auto net =
      paradise::model::read_paradl_net(PARADISE_PARADL_DIR "/model/ALEXNET_ImageNet.net");
  return net;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    (void)paradise::model::parse_layer_config(in, "fuzz.lc", alexnet().stats);
  });
}
