// libFuzzer target: ParaDiSE model files (*.model, model::parse_model_file).
#include "fuzz_input.hpp"
#include "paradise/model/model_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    (void)paradise::model::parse_model_file(in, "fuzz.model");
  });
}
