// The in-memory parser entry points the fuzz targets use (fuzz/, docs/fuzzing.md) apply the
// checks of the readers from a path, and every input the fuzzers found a parser failing on,
// minimised: each must now be refused with a clean InputError naming what is wrong.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "paradise/core/error.hpp"
#include "paradise/input/layer_times.hpp"
#include "paradise/sweep/sweep_file.hpp"

namespace paradise {
namespace {

const std::string kSweep =
    "[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8, 64\nbatch = 64\n";

/// The InputError message of `parse`, or "" when it accepts the input.
template <class Parse>
std::string error_of(Parse parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FuzzEntryPoints, SweepTextIsReadAsFromAFile) {
  const sweep::SweepFile f = sweep::parse_sweep_file(kSweep, "mem.ini");
  EXPECT_EQ(f.path, "mem.ini");
  EXPECT_EQ(f.text, kSweep);
  EXPECT_EQ(f.spec.gpus, (std::vector<std::int64_t>{8, 64}));
}

TEST(FuzzEntryPoints, SweepTextThatIsNotUtf8IsRefused) {
  // byte 0xe9 (Latin-1 e acute) on line 2 is the 14th: "[sweep]\n" is 8 bytes, "# caf" 5
  const std::string text = "[sweep]\n# caf\xe9 comment\n" + kSweep.substr(8);
  EXPECT_NE(error_of([&] {
              sweep::parse_sweep_file(text, "mem.ini");
            }).find("mem.ini:2: byte 14 (0xe9) is not UTF-8"),
            std::string::npos);
}

TEST(FuzzEntryPoints, SweepTextLongerThanAnAttributeIsRefused) {
  // 65,000 bytes is the most read_sweep_text stores (one HDF5 attribute); this text is
  // kSweep's 84 bytes, '#', 65,000 x and '\n': 65,086
  const std::string text = kSweep + "#" + std::string(65000, 'x') + "\n";
  EXPECT_NE(
      error_of([&] { sweep::parse_sweep_file(text, "mem.ini"); }).find("mem.ini: 65,086 bytes;"),
      std::string::npos);
}

TEST(FuzzEntryPoints, LayerTimesFromAStreamNameTheFileAndLine) {
  std::istringstream in("layer,forward_s,backward_s,batch\nc1,-1,0.002,8\n");
  EXPECT_EQ(error_of([&] { input::parse_layer_times(in, "mem.csv"); }),
            "mem.csv:2: column forward_s '-1': must be >= 0");
}

}  // namespace
}  // namespace paradise
