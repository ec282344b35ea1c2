// libFuzzer target: system files (INI, system::parse_system_file, then System::validate as
// system::find_system does).
#include "fuzz_input.hpp"
#include "paradise/system/catalog.hpp"
#include "paradise/system/system.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return paradise::fuzz::parse_stream(data, size, [](std::istream& in) {
    const auto s = paradise::system::parse_system_file(in, "fuzz.system");
    s.validate();
    (void)s.link_for(s.max_gpus);
  });
}
