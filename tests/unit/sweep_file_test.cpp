// Sweep files read through the core INI reader: values, and each error at its file and line
// with the wording the command line has always printed (tests/e2e/cli_test.sh has more).
#include "paradise/sweep/sweep_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace paradise::sweep {
namespace {

const std::string kBase =
    "[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8, 64\nbatch = 64\n";

std::string write_sweep(const std::string& text) {
  // one file per test: ctest runs tests side by side
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("paradise_sweep_file_test_") +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".ini");
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(const std::string& text) {
  const std::string path = write_sweep(text);
  try {
    read_sweep_file(path);
  } catch (const InputError& e) {
    std::string m = e.what();
    return m.substr(m.find(':') == std::string::npos ? 0 : path.size());
  }
  return "";
}

TEST(SweepFile, ReadsTheGridAndItsDefaults) {
  const SweepFile f = read_sweep_file(write_sweep(kBase + "[output]\nstorage = full\n"));
  EXPECT_EQ(f.spec.models, std::vector<std::string>{"resnet50"});
  EXPECT_EQ(f.spec.systems, std::vector<std::string>{"abci"});  // the default system
  EXPECT_EQ(f.spec.gpus, (std::vector<std::int64_t>{8, 64}));
  EXPECT_EQ(f.spec.variant, strategy::Variant::Paradise);
  EXPECT_EQ(f.storage, Storage::full);
  EXPECT_EQ(f.text, kBase + "[output]\nstorage = full\n");
}

TEST(SweepFile, ReadsKeysAsBoostProgramOptionsDid) {
  // a dotted key before any section is that section's; "[ output ]" is [output]
  const SweepFile f = read_sweep_file(write_sweep("sweep.system = dgx-a100\n" + kBase +
                                                  "[ output ]  # spaced\nstorage = summary\n"));
  EXPECT_EQ(f.spec.systems, std::vector<std::string>{"dgx-a100"});
  EXPECT_EQ(f.storage, Storage::summary);
}

TEST(SweepFile, SaysEachMistakeAtItsLine) {
  EXPECT_EQ(error_of("[sweep]\nmodel = resnet50\n"),
            ": sweep.batch '': missing (every sweep needs model, dataset, strategy, gpus, batch)");
  EXPECT_EQ(error_of(kBase + "model = vgg16 # again\n"),
            ":7: sweep.model 'vgg16': set more than once (one line per key; a list is A, B, C)");
  EXPECT_EQ(error_of("model = resnet18\n" + kBase),
            ":1: model 'resnet18': a key before any section; put it under [sweep]");
  EXPECT_EQ(error_of(kBase + "= 5\n"),
            ":7: sweep. '5': a value without a key (expected KEY = VALUE)");
  EXPECT_EQ(error_of(kBase + "modle = x\n"), ":7: sweep.modle 'x': unknown key");
  EXPECT_EQ(error_of(kBase + "[sweep.x]\na = 1\n"),
            ":8: sweep.x.a '1': unknown section [sweep.x]; expected [sweep], [output], "
            "[pareto], [memlimit], [layer_times] or [convergence]");
  // a malformed line is said first, wherever it is
  EXPECT_EQ(error_of(kBase + "modle = x\nbroken\n"),
            ":8: line 'broken': expected [section], key = value, a # comment or a blank line");
}

// The input axes (system files' [input] keys): values as written, each error at its line.
TEST(SweepFile, ReadsTheInputAxes) {
  const SweepFile f =
      read_sweep_file(write_sweep(kBase + "input_cpu_cores_per_node = 32, 64..256 *2\n"
                                          "input_node_read_GBps = 2.5\n"
                                          "input_filesystem_GBps = 40, 1000\n"));
  EXPECT_EQ(f.spec.input_cpu_cores, (std::vector<std::int64_t>{32, 64, 128, 256}));
  EXPECT_EQ(f.spec.input_node_read_GBps, std::vector<double>{2.5});
  EXPECT_EQ(f.spec.input_filesystem_GBps, (std::vector<double>{40, 1000}));
  EXPECT_EQ(error_of(kBase + "input_cpu_cores_per_node = 0\n"),
            ":7: input_cpu_cores_per_node '0': every value must be >= 1");
  EXPECT_EQ(error_of(kBase + "input_filesystem_GBps = 40, 0\n"),
            ":7: input_filesystem_GBps '0': every value must be > 0");
  EXPECT_NE(error_of(kBase + "input_node_read_GBps = 2.5, 2.5\n").find(":7: input_node_read_GBps"),
            std::string::npos);
}

// [convergence]: MODEL or MODEL@DATASET of this sweep = E_MIN[:NOISE_BATCH], at its line;
// a to-train objective marks the sweep as needing epochs (the Evaluator refuses a model
// without them, summary_test).
TEST(SweepFile, ReadsTheConvergenceSection) {
  const SweepFile f =
      read_sweep_file(write_sweep(
          kBase + "[pareto]\nobjectives = time_to_train, gpus\n[convergence]\nresnet50@imagenet = "
                  "30:8192\n"));
  ASSERT_EQ(f.spec.convergence.count("resnet50@imagenet"), 1u);
  EXPECT_EQ(f.spec.convergence.at("resnet50@imagenet").epochs_min, 30);
  EXPECT_EQ(f.spec.convergence.at("resnet50@imagenet").noise_batch, 8192);
  EXPECT_TRUE(f.spec.needs_epochs);
  EXPECT_FALSE(read_sweep_file(write_sweep(kBase)).spec.needs_epochs);
  EXPECT_EQ(error_of(kBase + "[convergence]\nvgg16 = 30\n"),
            ":8: convergence.vgg16 '30': 'vgg16' is not a model of this sweep");
  EXPECT_EQ(error_of(kBase + "[convergence]\nresnet50@cifar10 = 30\n"),
            ":8: convergence.resnet50@cifar10 '30': 'cifar10' is not a dataset of this sweep");
  EXPECT_EQ(error_of(kBase + "[convergence]\nresnet50 = 30:0\n"),
            ":8: convergence.resnet50 '30:0': expected E_MIN or E_MIN:NOISE_BATCH, epochs > 0 "
            "and a global batch > 0 (docs/time-to-train.md)");
}

TEST(SweepFile, RefusesParadiseSettingsUnderTheParadlVariant) {
  EXPECT_EQ(error_of(kBase + "variant = paradl\nprecision = fp32, mixed\n"),
            ":8: precision 'fp32, mixed': the paradl variant models fp32 only");
  EXPECT_EQ(error_of(kBase + "variant = paradl\nzero = 1\n"),
            ":8: zero '1': a policy of the paradise variant; the paradl variant reproduces "
            "ParaDL, which has none (drop it, or variant = paradise)");
  EXPECT_EQ(error_of("[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\n"
                     "gpus = 0, 8\nbatch = 64\n"),
            ":5: gpus '0, 8': every GPU count must be >= 1");
}

// Issue 39: spatial_split, p2 and segments as settings (several values: an axis), counts or
// auto; given only where a strategy of the sweep has them, each error at its line.
TEST(SweepFile, ReadsTheSearchedShapes) {
  const std::string hybrids =
      "[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data+filter, pipeline, spatial\n"
      "gpus = 8, 64\nbatch = 64\n";
  const SweepFile f = read_sweep_file(
      write_sweep(hybrids + "p2 = 2, auto\nsegments = auto\nspatial_split = w, auto\n"));
  EXPECT_EQ(f.spec.p2s, (std::vector<std::int64_t>{2, strategy::kSearched}));
  EXPECT_EQ(f.spec.segment_counts, std::vector<std::int64_t>{strategy::kSearched});
  EXPECT_EQ(f.spec.spatial_splits, (std::vector<strategy::SpatialSplit>{
                                       strategy::SpatialSplit::W, strategy::SpatialSplit::Auto}));
  // defaults: the variant's split (paradise auto, paradl w), p2 and segments not given
  EXPECT_EQ(read_sweep_file(write_sweep(kBase)).spec.spatial_splits,
            std::vector<strategy::SpatialSplit>{strategy::SpatialSplit::Auto});
  EXPECT_EQ(read_sweep_file(write_sweep(kBase + "variant = paradl\n")).spec.spatial_splits,
            std::vector<strategy::SpatialSplit>{strategy::SpatialSplit::W});
  EXPECT_TRUE(read_sweep_file(write_sweep(kBase)).spec.p2s.empty());
  EXPECT_EQ(error_of(hybrids + "p2 = 0\n"), ":7: p2 '0': expected a whole number >= 1 or auto");
  EXPECT_EQ(error_of(hybrids + "segments = 4, four\n"),
            ":7: segments 'four': expected a whole number >= 1 or auto");
  EXPECT_EQ(error_of(hybrids + "p2 = auto, 4, auto\n"),
            ":7: p2 'auto, 4, auto': 'auto' repeats a value of the list");
  EXPECT_EQ(error_of(kBase + "p2 = 4\n"),
            ":7: p2 '4': GPUs per group of the hybrids (data+filter, data+spatial, "
            "data+pipeline): no strategy of this sweep has groups");
  EXPECT_EQ(error_of(kBase + "segments = auto\n"),
            ":7: segments 'auto': micro-batches of a pipeline (pipeline, data+pipeline): no "
            "strategy of this sweep has them");
  EXPECT_EQ(error_of(kBase + "spatial_split = w, all\n"),
            ":7: spatial_split 'w, all': several splits make an axis of spatial and "
            "data+spatial's splits: no strategy of this sweep splits samples");
  EXPECT_EQ(error_of(hybrids + "spatial_split = wh\n"),
            ":7: spatial_split 'wh': expected w, hw, all or auto");
}

}  // namespace
}  // namespace paradise::sweep
