// Memory-limit searches against brute-force scans and a hand-derived value.
#include "paradise/sweep/memlimit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "paradise/model/paradl_files.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::sweep {
namespace {

using strategy::Kind;
using strategy::Status;

strategy::Config config(Kind k, std::int64_t gpus, std::int64_t batch) {
  strategy::Config c;
  c.kind = k;
  c.gpus = gpus;
  c.batch = batch;
  return c;
}

TEST(LargestBatch, ParadlResnet50FitsSixtySixSamplesPerGpu) {
  // docs/cost-model.md §ref-paradl-memory: (16e9 / (2*4) - 22,734,016) / 29,790,964 = 66.37 samples
  // per 16 GB GPU, so on 8 GPUs the largest data-parallel batch is 8 * 66 = 528.
  const auto w = strategy::make_workload(
      {PARADISE_PARADL_DIR "/model/RESNET50_ImageNet_profall.net_sc", "", "abci", "", 0});
  EXPECT_EQ(largest_batch(w, config(Kind::Data, 8, 0), 1, 1 << 20).value, 528);
}

// The largest batch up to `hi` at which `c` is feasible, predicting every batch.
std::int64_t brute_batch(const strategy::Workload& w, strategy::Config c, std::int64_t hi) {
  std::int64_t brute = 0;
  for (std::int64_t b = 1; b <= hi; ++b) {
    c.batch = b;
    if (strategy::predict(w, c).status == Status::Ok) brute = b;
  }
  return brute;
}

TEST(LargestBatch, EqualsABruteForceScan) {
  const auto w = strategy::make_workload({"vgg16", "imagenet", "dgx-a100", "", 0});
  for (Kind k : {Kind::Data, Kind::Filter, Kind::DataFilter, Kind::Pipeline}) {
    const auto c = config(k, 16, 0);
    const Limit fast = largest_batch(w, c, 1, 4096);
    EXPECT_EQ(fast.value, brute_batch(w, c, 4096)) << strategy::kind_name(k);
    EXPECT_LT(fast.evaluations, 40) << strategy::kind_name(k);
  }
}

// Issue 39: with p2 and segments = auto (recommend's and memlimit's default under the
// paradise variant) the largest batch is a brute-force scan's over every batch with the
// shapes searched at each, on 16 DGX A100 GPUs up to batch 1,024 (the scan predicts every
// batch with auto, independent of the search's per-group-size bisection).
TEST(LargestBatch, SearchedShapesEqualABruteForceScan) {
  const auto w = strategy::make_workload({"vgg16", "imagenet", "dgx-a100", "", 0});
  for (Kind k : {Kind::DataFilter, Kind::DataSpatial, Kind::Pipeline, Kind::DataPipeline}) {
    auto c = config(k, 16, 0);
    c.variant = strategy::Variant::Paradise;
    c.p2 = c.segments = strategy::kSearched;
    const Limit fast = largest_batch(w, c, 1, 1024);
    const std::int64_t brute = brute_batch(w, c, 1024);
    EXPECT_EQ(fast.value, brute) << strategy::kind_name(k);
    EXPECT_GT(brute, 0) << strategy::kind_name(k);
  }
  // a step every value divides: one group of every GPU, one sample per micro-batch
  auto c = config(Kind::DataFilter, 16, 0);
  c.p2 = strategy::kSearched;
  EXPECT_EQ(batch_step(w, c), 1);
  c = config(Kind::DataPipeline, 16, 0);
  c.p2 = 4;
  c.segments = strategy::kSearched;
  EXPECT_EQ(batch_step(w, c), 4);  // 4 replicas of 4 stages, micro-batches of one sample
}

// Under p2 = auto a limit is a lower bound when a group size that reaches it has its next
// batch past the range (a review finding: the step of one group of every GPU, 1, called
// ResNet-50's 256 on 128 GPUs exact at --max-batch 257, where the group sizes that reach it,
// 2 GPUs in 64 groups or 64 in 2, next divide 320 and 258; one group of 128 is invalid,
// past the 64 filters). The expected answer is each explicit group size's own.
TEST(SearchEnd, UnderAutoTheGroupSizeThatReachesTheLimitSaysWhetherItIsABound) {
  const auto w = strategy::make_workload({"resnet50", "imagenet", "dgx-a100", "", 0});
  auto c = config(Kind::DataFilter, 128, 0);
  c.variant = strategy::Variant::Paradise;
  c.p2 = strategy::kSearched;
  for (const std::int64_t hi : {257, 300, 4096}) {
    const Limit searched = largest_batch(w, c, 1, hi);
    std::int64_t best = 0;
    bool bound = false;
    for (const auto p2 : strategy::searched_group_sizes(128)) {
      auto x = c;
      x.p2 = p2;
      const Limit l = largest_batch(w, x, 1, hi);
      if (l.value > best) bound = false;
      if (l.value >= best && l.value > 0) bound = bound || batch_at_search_end(w, x, l.value, hi);
      best = std::max(best, l.value);
    }
    SCOPED_TRACE(hi);
    EXPECT_EQ(searched.value, best);
    EXPECT_EQ(batch_at_search_end(w, c, searched.value, hi), bound);
  }
  EXPECT_TRUE(batch_at_search_end(w, c, largest_batch(w, c, 1, 257).value, 257));
}

std::int64_t brute_resolution(const ResolutionFamily& f, const strategy::Config& c, std::int64_t lo,
                              std::int64_t hi, std::int64_t step) {
  std::int64_t best = 0;
  for (std::int64_t s = lo; s <= hi; s += step) {
    const auto w = f.at(s);
    if (w && strategy::predict(*w, c).status == Status::Ok) best = s;
  }
  return best;
}

TEST(LargestResolution, CosmoflowCubeEqualsABruteForceScan) {
  const ResolutionFamily f{{"cosmoflow", "cosmoflow", "abci", "", 0}};
  // spatial on 16 GPUs: the default split reaches further as the side grows (conv3 at 128^3,
  // conv4 at 256^3, conv5 at 512^3; `predict --format json`'s split_layer), the case where
  // memory can stop growing with the side (spatial on 64 GPUs, below)
  for (const auto& c :
       {config(Kind::Data, 4, 4), config(Kind::DataSpatial, 64, 16), config(Kind::Filter, 8, 1),
        config(Kind::Spatial, 16, 4), config(Kind::Spatial, 64, 16)}) {
    for (const auto v : {strategy::Variant::Paradl, strategy::Variant::Paradise}) {
      auto cv = c;
      cv.variant = v;
      const auto what =
          std::string(strategy::kind_name(c.kind)) + " " + std::string(strategy::variant_name(v));
      const Limit fast = largest_resolution(f, cv, 32, 700);
      EXPECT_EQ(fast.value, brute_resolution(f, cv, 32, 700, 1)) << what;
      EXPECT_GT(fast.value, 0) << what;
      // two bisections of at most ceil(log2 669) = 10 per run of the same split (conv1 to
      // conv5 at most: 5 runs), not a scan of the 669 sides
      EXPECT_LE(fast.evaluations, 5 * 2 * 11) << what;
    }
  }
}

// Where memory stops growing with the side: spatial on 64 GPUs (W only), CosmoFlow at batch
// 16. Its conv4 sees floor(floor(floor((s - 2) / 2) / 2) / 2) columns (a 3^3 valid conv, then
// 2^3 pools around padded convs): 63 at s = 513, 64 at s = 514, so the default split takes
// conv4 (and the layers before it) too from 514 on, and their activations drop to 1/64.
// Below 514 the ReLU and pool after conv3 run whole on its gathered output (at 448, 16
// samples of 64 x 111^3 elements, 5.6 GB in fp32). Against ABCI's 16 GB: up to 409 fits,
// 410..513 does not, 514..573 fits again (the sides found by predicting each one; 578
// before the pools' halos on tiles of an odd number of rows, 7 of conv1's 446 at 448).
TEST(LargestResolution, ALargerSideCanFitAgainWhenTheSplitReachesAnotherConvolution) {
  const ResolutionFamily f{{"cosmoflow", "cosmoflow", "abci", "", 0}};
  auto c = config(Kind::Spatial, 64, 16);
  c.variant = strategy::Variant::Paradise;  // its memory model (runtime context, workspace)
  const std::vector<std::pair<std::int64_t, Status>> expected{
      {409, Status::Ok}, {410, Status::OutOfMemory}, {513, Status::OutOfMemory},
      {514, Status::Ok}, {573, Status::Ok},          {574, Status::OutOfMemory}};
  for (const auto& [side, status] : expected) {
    const auto p = strategy::predict(f.make(side), c);
    EXPECT_EQ(p.status, status) << side;
    EXPECT_EQ(f.make(side).model.layers[static_cast<std::size_t>(p.split_layer)].name,
              side < 514 ? "conv3" : "conv4")
        << side;
  }
  // (a bisection over "fits" alone over 200..800 probes 500, out of memory, and answers 409)
  EXPECT_EQ(largest_resolution(f, c, 128, 1024).value, 573);
  EXPECT_EQ(largest_resolution(f, c, 200, 800).value, 573);
}

// The search by hand: splits 1 below side 90 and 2 from it; out of memory above 40 with
// split 1 and above 95 with split 2. "Fits" is true on 1..40 and 90..95 only.
TEST(LargestSide, SearchesEachRunOfTheSameSplitFromTheTop) {
  const auto two_runs = [](std::int64_t oom_above) {
    return [oom_above](std::int64_t s) {
      const int split = s < 90 ? 1 : 2;
      const bool oom = split == 1 ? s > 40 : s > oom_above;
      return SideOutcome{oom ? Status::OutOfMemory : Status::Ok, split};
    };
  };
  EXPECT_EQ(largest_side(two_runs(95), 1, 100, 1).value, 95);
  EXPECT_EQ(largest_side(two_runs(95), 1, 100, 5).value, 91);  // 1, 6, ..., 91, 96
  // the upper run is out of memory from its first side: the lower run's boundary
  EXPECT_EQ(largest_side(two_runs(80), 1, 100, 1).value, 40);
  // no split (non-spatial strategies): one run, invalid sides below the model's smallest
  const auto plain = [](std::int64_t s) {
    return SideOutcome{s < 10 ? Status::Invalid : (s > 60 ? Status::OutOfMemory : Status::Ok)};
  };
  EXPECT_EQ(largest_side(plain, 1, 100, 1).value, 60);
  EXPECT_EQ(largest_side(plain, 61, 100, 1).value, 0);
}

// Below the out-of-memory boundary the search steps down to the largest feasible side:
// through sides the model cannot take (here all but multiples of 8, as unet3d's), but not
// through a strategy's constraint, which holds at every smaller side of the run too.
TEST(LargestSide, AStrategysConstraintEndsTheWalkDownSidesTheModelCannotTakeDoNot) {
  const auto multiples_of_8 = [](Status taken) {
    return [taken](std::int64_t s) {
      return s % 8 != 0 ? SideOutcome{.untaken = true} : SideOutcome{taken};
    };
  };
  EXPECT_EQ(largest_side(multiples_of_8(Status::Ok), 1, 2003, 1).value, 2000);
  // every taken side invalid (a batch the GPUs cannot divide): 0 after the walk down to 2000
  const auto invalid = largest_side(multiples_of_8(Status::Invalid), 1, 2003, 1);
  EXPECT_EQ(invalid.value, 0);
  EXPECT_LE(invalid.evaluations, 2 + 12 + 4);  // the top, a bisection over 2^11, 2003..2000
  // the real model: resnet50, batch 4 on 64 GPUs is invalid at every side; stepping down one
  // side at a time took 10^6 predictions (and a workload each)
  const ResolutionFamily f{{"resnet50", "imagenet", "abci", "", 0}};
  const auto r = largest_resolution(f, config(Kind::Data, 64, 4), 1, 1000000);
  EXPECT_EQ(r.value, 0);
  EXPECT_LE(r.evaluations, 2 * 20 + 2);
  EXPECT_GT(largest_resolution(f, config(Kind::Data, 64, 64), 1, 1000000).value, 224);
}

// A family no side of which can be taken (a 3-D model on 2-D images) is not tried side by
// side (2.4 s per entry over 1..10^5 in a sweep): none, without a prediction.
TEST(LargestSide, AFamilyWithNoSideIsNotSearched) {
  const ResolutionFamily wrong_rank{{"unet3d", "imagenet", "abci", "", 0}};
  EXPECT_EQ(wrong_rank.no_side_reason(),
            "model 'unet3d' takes 3-D inputs, dataset 'imagenet' has 2-D samples");
  const auto r = largest_resolution(wrong_rank, config(Kind::Data, 8, 8), 1, 2000000);
  EXPECT_EQ(r.value, 0);
  EXPECT_EQ(r.evaluations, 0);
  EXPECT_EQ(ResolutionFamily({"unet3d", "cosmoflow", "abci", "", 0}).no_side_reason(), "");
}

// Sides past the supported tensor sizes are invalid, not out of memory, and so is every
// larger side: the search bisects for the last size that can be built (log2 of the range
// in evaluations), where stepping down one side at a time took 999,601 for cosmoflow.
TEST(LargestSide, SidesPastTheSupportedSizesAreSkippedByBisection) {
  const auto sized = [](std::int64_t oom_above, std::int64_t too_large_from) {
    return [=](std::int64_t s) {
      if (s >= too_large_from) return SideOutcome{.too_large = true};
      return SideOutcome{s < 10 ? Status::Invalid
                                : (s > oom_above ? Status::OutOfMemory : Status::Ok)};
    };
  };
  const auto all_fit = largest_side(sized(1 << 30, 700000), 1, 1000000, 1);
  EXPECT_EQ(all_fit.value, 699999);
  EXPECT_LE(all_fit.evaluations, 2 * 20 + 2);  // two bisections over 2^20 sides
  const auto oom = largest_side(sized(60, 5000), 1, 1000000, 1);
  EXPECT_EQ(oom.value, 60);
  EXPECT_LE(oom.evaluations, 2 * 20 + 2);
  EXPECT_EQ(largest_side(sized(60, 5000), 5000, 1000000, 1).value, 0);  // all too large
  // the real model: cosmoflow's conv1 output (16 channels) is past 2^48 elements from about
  // side 26,010, its input (4 channels) from 41,286
  const ResolutionFamily f{{"cosmoflow", "cosmoflow", "abci", "", 0}};
  const auto c = config(Kind::Spatial, 8, 8);
  const auto wide = largest_resolution(f, c, 128, 1000000);
  EXPECT_EQ(wide.value, largest_resolution(f, c, 128, 2000).value);
  EXPECT_LE(wide.evaluations, 100);
}

// The largest side a model takes, for memlimit's "none" reason at the range's top: below the
// first side past the supported sizes (bisection), then a bounded walk down.
TEST(LastSide, TheLargestTakenSideBelowTheSupportedSizes) {
  const auto multiples = [](std::int64_t of, std::int64_t too_large_from) {
    return [=](std::int64_t s) {
      if (s >= too_large_from) return SideTaken::TooLarge;
      return s % of == 0 ? SideTaken::Yes : SideTaken::No;
    };
  };
  // by hand: the largest multiple of 8 below 5,000 is 4,992
  const auto l = last_side(1, 1000000, 1, multiples(8, 5000));
  EXPECT_EQ(l.side, 4992);
  EXPECT_FALSE(l.too_large);
  // sides 1, 6, ..., 96 (1 mod 5): the largest multiple of 7 among them is 91
  EXPECT_EQ(last_side(1, 100, 5, multiples(7, 1 << 30)).side, 91);
  // hi itself taken: 96 (1 + 19 x 5) is a multiple of 8
  EXPECT_EQ(last_side(1, 96, 5, multiples(8, 1 << 30)).side, 96);
  // a step with the bisection: sides 3, 10, 17, ... (3 mod 7) that are multiples of 8 are
  // 24 mod 56 (24 = 3 x 7 + 3); the largest below 5,000 is 24 + 88 x 56 = 4,952
  EXPECT_EQ(last_side(3, 1000000, 7, multiples(8, 5000)).side, 4952);
  const auto all_large = last_side(5000, 9000, 1, multiples(8, 5000));
  EXPECT_EQ(all_large.side, 5000);
  EXPECT_TRUE(all_large.too_large);
  const auto none = last_side(1, 7, 1, multiples(8, 5000));  // no multiple of 8 in 1..7
  EXPECT_EQ(none.side, 0);
  EXPECT_TRUE(none.exhausted);
  // only side 1 is taken, 9,999 sides above it: the walk stops after 4,096
  const auto far = last_side(
      1, 10000, 1, [](std::int64_t s) { return s == 1 ? SideTaken::Yes : SideTaken::No; });
  EXPECT_EQ(far.side, 0);
  EXPECT_FALSE(far.exhausted);
}

// A limit at the top of its search is a lower bound (memlimit's "or more", a sweep's
// NAME_at_search_end): by hand, against the same taken-side rule as above.
TEST(SearchEnd, ASideIsALowerBoundWhenNoLaterSideOfTheRangeIsTaken) {
  const auto multiples = [](std::int64_t of, std::int64_t too_large_from) {
    return [=](std::int64_t s) {
      if (s >= too_large_from) return SideTaken::TooLarge;
      return s % of == 0 ? SideTaken::Yes : SideTaken::No;
    };
  };
  EXPECT_TRUE(side_at_search_end(96, 96, 8, multiples(8, 1 << 30)));    // the range's last side
  EXPECT_TRUE(side_at_search_end(96, 100, 4, multiples(8, 1 << 30)));   // 100: not taken
  EXPECT_FALSE(side_at_search_end(96, 104, 4, multiples(8, 1 << 30)));  // 104 taken, not fitting
  EXPECT_FALSE(side_at_search_end(96, 104, 4, multiples(8, 100)));      // 100 past the sizes: real
  EXPECT_FALSE(side_at_search_end(0, 96, 8, multiples(8, 1 << 30)));    // nothing fits: no bound
  // near the int64 top: the next side would overflow, so the value is the range's last side
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  EXPECT_TRUE(side_at_search_end(top - 3, top, 8, multiples(1, top)));
}

TEST(SearchEnd, ABatchIsALowerBoundWhenTheNextOneTheStrategyDividesIsPastTheRange) {
  // by hand: data on 16 GPUs runs multiples of 16; with --max-batch 1000 the last is 992
  const auto w = strategy::make_workload({"vgg16", "imagenet", "dgx-a100", "", 0});
  const auto data = config(Kind::Data, 16, 0);
  EXPECT_TRUE(batch_at_search_end(w, data, 992, 1000));
  EXPECT_FALSE(batch_at_search_end(w, data, 976, 1000));
  EXPECT_FALSE(batch_at_search_end(w, data, 0, 1000));
  // data+filter on 16 DGX A100 GPUs (8 per node): 2 groups, any even batch; 1,000 is the top
  const auto df = config(Kind::DataFilter, 16, 0);
  EXPECT_TRUE(batch_at_search_end(w, df, 1000, 1000));
  EXPECT_FALSE(batch_at_search_end(w, df, 998, 1000));
  EXPECT_TRUE(batch_at_search_end(w, df, 998, 999));
}

TEST(LargestResolution, Unet3dWithAStepOfEight) {
  const ResolutionFamily f{{"unet3d", "cosmoflow", "dgx-a100", "", 0}};
  const auto c = config(Kind::Data, 8, 8);
  EXPECT_EQ(largest_resolution(f, c, 16, 1024, 8).value, brute_resolution(f, c, 16, 1024, 8));
}

TEST(FewestGpus, CosmoflowAt512NeedsMoreGpusWithDataSpatial) {
  const auto w = strategy::make_workload({"cosmoflow", "cosmoflow512", "abci", "", 0});
  const std::vector<std::int64_t> gpus{4, 8, 16, 32, 64, 128, 256, 512, 1024};
  const Limit ds = fewest_gpus(w, config(Kind::DataSpatial, 0, 256), gpus);
  std::int64_t brute = 0;
  for (std::int64_t g : gpus) {
    auto c = config(Kind::DataSpatial, g, 256);
    if (strategy::predict(w, c).status == Status::Ok) {
      brute = g;
      break;
    }
  }
  EXPECT_EQ(ds.value, brute);
}

}  // namespace
}  // namespace paradise::sweep

namespace paradise::sweep {
namespace {

// Issue 39: with the extended model's default split, auto (the best of W, H x W and every
// dimension per configuration), adding GPUs never loses a side that fitted: over sides x
// GPU counts, a configuration that fits on g GPUs fits on 2g, and the largest side found by
// the search never falls as GPUs double. ParaDL's width-only split does lose them: 3-D U-Net
// at 512^3 on 128 A100s needs 394.5 GB per GPU with it (the later convolutions too narrow to
// split 128 ways along W), 5.4 GB with auto; CosmoFlow's largest side on 128 ABCI GPUs
// falls to 271 from 573 on 64.
TEST(LargestResolution, AutoSplitNeverLosesASideAsGpusAreAdded) {
  struct Case {
    const char* model;
    const char* system;
    std::int64_t batch, step;
  };
  for (const auto& k : {Case{"cosmoflow", "abci", 16, 1}, Case{"unet3d", "dgx-a100", 1, 8}}) {
    const ResolutionFamily f{{k.model, "cosmoflow", k.system, "", 0}};
    std::int64_t before = 0;
    for (std::int64_t g = 4; g <= 512; g *= 2) {
      auto c = config(Kind::Spatial, g, k.batch);
      c.variant = strategy::Variant::Paradise;
      c.spatial_split = strategy::SpatialSplit::Auto;
      for (const std::int64_t side : {128, 256, 512, 768, 1024}) {
        const auto w = f.make(side);
        auto twice = c;
        twice.gpus = 2 * g;
        if (strategy::predict(w, c).status != strategy::Status::Ok) continue;
        EXPECT_EQ(strategy::predict(w, twice).status, strategy::Status::Ok)
            << k.model << " side " << side << " on " << g << " -> " << 2 * g << " GPUs";
      }
      const auto largest = largest_resolution(f, c, 64, 2048, k.step).value;
      EXPECT_GE(largest, before) << k.model << " on " << g << " GPUs";
      before = largest;
    }
    EXPECT_GT(before, 1024) << k.model;
  }
  // the cliff of the width-only split, for the record
  const ResolutionFamily unet{{"unet3d", "cosmoflow", "dgx-a100", "", 0}};
  auto c = config(Kind::Spatial, 128, 1);
  c.variant = strategy::Variant::Paradise;
  c.spatial_split = strategy::SpatialSplit::W;
  EXPECT_EQ(strategy::predict(unet.make(512), c).status, strategy::Status::OutOfMemory);
  c.spatial_split = strategy::SpatialSplit::Auto;
  const auto p = strategy::predict(unet.make(512), c);
  EXPECT_EQ(p.status, strategy::Status::Ok);
  EXPECT_EQ(p.spatial_split, strategy::SpatialSplit::All);
}

}  // namespace
}  // namespace paradise::sweep
