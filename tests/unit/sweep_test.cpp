// The sweep grid, value ranges, partitioning, Pareto fronts and point evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <tuple>

#include "paradise/calibrate/system_writer.hpp"
#include "paradise/core/error.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/pareto.hpp"
#include "paradise/system/catalog.hpp"
#include "paradise/system/system.hpp"

namespace paradise::sweep {
namespace {

TEST(ParseIntValues, ListsAndRanges) {
  EXPECT_EQ(parse_int_values("16..1024 *2", {}, "gpus"),
            (std::vector<std::int64_t>{16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(parse_int_values("64..256 +64", {}, "batch"),
            (std::vector<std::int64_t>{64, 128, 192, 256}));
  EXPECT_EQ(parse_int_values("1, 3, 5..9 +2", {}, "k"), (std::vector<std::int64_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(parse_int_values("1..10 *3", {}, "k"), (std::vector<std::int64_t>{1, 3, 9}));
}

TEST(ParseIntValues, BadValuesNameFileLineKeyAndValue) {
  try {
    parse_int_values("16..8 *2", {"s.ini", 4}, "gpus");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.ini:4: gpus '16..8 *2': the range ends below its start");
  }
  // a bad part of a range is said with the whole range (it quoted '-1' alone)
  try {
    parse_int_values("8, 1..4 +-1", {"s.ini", 4}, "gpus");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "s.ini:4: gpus '1..4 +-1': '-1' is not a whole number from 0 to 2^63 - 1: a "
                 "range is A..B *F or A..B +S in whole numbers");
  }
  EXPECT_THROW(parse_int_values("1..9", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1..9 *1", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1,,2", {}, "k"), InputError);
  EXPECT_THROW(parse_int_values("1..2000000 +1", {}, "k"), InputError);
}

TEST(ParsePositiveRealValues, DecimalsAndIntegerRanges) {
  EXPECT_EQ(parse_positive_real_values("0.5, 1.25, 2..8 *2", {}, "lat"),
            (std::vector<double>{0.5, 1.25, 2, 4, 8}));
  EXPECT_EQ(parse_positive_real_values("1e-1", {}, "lat"), (std::vector<double>{0.1}));
  try {
    parse_positive_real_values("0.5, 0", {"s.ini", 9}, "network_latency_us");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.ini:9: network_latency_us '0': every value must be > 0");
  }
  EXPECT_THROW(parse_positive_real_values("-1", {}, "k"), InputError);
  EXPECT_THROW(parse_positive_real_values("0..4 +2", {}, "k"), InputError);  // 0 in the range
  EXPECT_THROW(parse_positive_real_values("nan", {}, "k"), InputError);
  EXPECT_THROW(parse_positive_real_values("inf", {}, "k"), InputError);
  EXPECT_THROW(parse_positive_real_values("1.5us", {}, "k"), InputError);
  EXPECT_THROW(parse_positive_real_values("1,,2", {}, "k"), InputError);
}

TEST(Axis, TextOfEachKind) {
  const Axis labels{"model", {"resnet50", "vgg16"}, {}};
  const Axis integers{"gpus", {}, {8, 1024}};
  const Axis reals{"network_latency_us", {}, {}, {0.5, 2, 0.1}};
  EXPECT_EQ(labels.text(1), "vgg16");
  EXPECT_EQ(integers.text(1), "1024");
  // the shortest decimal that reads back as the same double
  EXPECT_EQ(reals.text(0), "0.5");
  EXPECT_EQ(reals.text(1), "2");
  EXPECT_EQ(reals.text(2), "0.1");
  EXPECT_EQ(reals.size(), 3u);
  EXPECT_TRUE(reals.real() && !reals.categorical() && !integers.real());
}

TEST(Grid, DecodeIsTheInverseOfEncodeWithTheLastAxisFastest) {
  const Grid g({Axis{"a", {"x", "y"}, {}}, Axis{"b", {}, {1, 2, 3}}, Axis{"c", {}, {5, 6, 7, 8}}});
  EXPECT_EQ(g.points(), 24u);
  std::vector<std::uint64_t> c;
  g.decode(23, c);
  EXPECT_EQ(c, (std::vector<std::uint64_t>{1, 2, 3}));
  g.decode(5, c);  // 0*12 + 1*4 + 1
  EXPECT_EQ(c, (std::vector<std::uint64_t>{0, 1, 1}));
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    g.decode(i, c);
    EXPECT_EQ(g.encode(c), i);
  }
}

TEST(Grid, OverflowAndEmptyAxesAreRefusedWithTheNumbers) {
  std::vector<std::int64_t> big(1 << 16);
  std::vector<Axis> axes(5, Axis{"x", {}, big});  // 2^80 points
  try {
    Grid g(axes);
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2^64"), std::string::npos);
  }
  EXPECT_THROW(Grid({Axis{"empty", {}, {}}}), InputError);
}

TEST(BlockOf, CoversEveryPointExactlyOnceForAnyRankCount) {
  for (int ranks : {1, 2, 3, 4, 7}) {
    for (std::uint64_t points : {0ull, 1ull, 6ull, 1000003ull}) {
      std::uint64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const Range b = block_of(points, r, ranks);
        EXPECT_EQ(b.begin, next);
        EXPECT_LE(b.end - b.begin, points / static_cast<std::uint64_t>(ranks) + 1);
        next = b.end;
      }
      EXPECT_EQ(next, points);
    }
  }
}

// Obviously-correct O(n^2) front: keep what nothing dominates (no worse in all three, better
// in one); duplicates keep the lowest index. Sorted by the objectives, then the index.
std::vector<Candidate> brute_force_front(const std::vector<Candidate>& c) {
  std::vector<Candidate> front;
  for (const auto& x : c) {
    bool dominated = false;
    for (const auto& y : c) {
      const bool no_worse = y.first <= x.first && y.second <= x.second && y.third <= x.third;
      const bool better = y.first < x.first || y.second < x.second || y.third < x.third;
      const bool same = y.first == x.first && y.second == x.second && y.third == x.third;
      if ((no_worse && better) || (same && y.index < x.index)) dominated = true;
    }
    if (!dominated) front.push_back(x);
  }
  std::sort(front.begin(), front.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.first, a.second, a.third, a.index) <
           std::tie(b.first, b.second, b.third, b.index);
  });
  return front;
}

// Random candidates from a few values (many ties and duplicates), with two objectives (every
// third 0) or three; the front equals the brute force's, and merging the fronts of two
// pieces gives it again.
void expect_front_equals_brute_force(int objectives, int values, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> small(0, values);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Candidate> all;
    for (std::uint64_t i = 0; i < 200; ++i) {
      const auto a = static_cast<double>(small(rng)), b = static_cast<double>(small(rng));
      const double c = objectives == 3 ? static_cast<double>(small(rng)) : 0.0;
      all.push_back({a, b, c, i});
    }
    const auto expected = brute_force_front(all);
    const auto front = pareto_front(all);
    ASSERT_EQ(front.size(), expected.size()) << objectives << " objectives, trial " << trial;
    for (std::size_t i = 0; i < front.size(); ++i) EXPECT_EQ(front[i].index, expected[i].index);
    const std::vector<Candidate> left(all.begin(), all.begin() + 77),
        right(all.begin() + 77, all.end());
    const auto merged = merge_fronts(pareto_front(left), pareto_front(right));
    ASSERT_EQ(merged.size(), front.size());
    for (std::size_t i = 0; i < front.size(); ++i) EXPECT_EQ(merged[i].index, front[i].index);
  }
}

TEST(Pareto, EqualsTheBruteForceFrontAndMergesExactly) {
  expect_front_equals_brute_force(2, 30, 42);
  expect_front_equals_brute_force(3, 30, 43);
  expect_front_equals_brute_force(3, 4, 44);     // mostly duplicates
  expect_front_equals_brute_force(3, 1000, 45);  // few ties, large fronts
}

TEST(Pareto, ThreeObjectivesKeepWhatTwoWouldDrop) {
  // by hand: (1 s, 8 GPUs, 9 GB) and (2 s, 8 GPUs, 3 GB): with time and GPUs the second is
  // dominated; memory makes it a trade-off. (2 s, 16 GPUs, 3 GB) is dominated by the second
  // in all three; (2 s, 8 GPUs, 3 GB) at a larger index is a duplicate
  const std::vector<Candidate> c{{2, 16, 3e9, 0}, {1, 8, 9e9, 1}, {2, 8, 3e9, 2}, {2, 8, 3e9, 3}};
  const auto f = pareto_front(c);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].index, 1u);
  EXPECT_EQ(f[1].index, 2u);
  std::vector<Candidate> two(c);
  for (auto& x : two) x.third = 0;
  const auto g = pareto_front(two);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].index, 1u);
}

// The same bits' value, or both missing (an invalid point's NaN).
void expect_same(double got, double want, std::uint64_t i) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << i;
  } else {
    EXPECT_EQ(got, want) << i;
  }
}

// Every point of `e` (visited twice: in grid order, then backwards, so that the compute
// memo fills in another order) equals, bit for bit, a fresh prediction of config_of(its
// coordinates) on its model, dataset and system (coordinates 0-2); where the model cannot
// take the dataset every point is invalid. Returns each point's status.
std::vector<std::uint8_t> expect_fresh_predictions(
    const Evaluator& e, const SweepSpec& s,
    const std::function<strategy::Config(const std::vector<std::uint64_t>&)>& config_of) {
  const auto n = e.grid().points();
  std::vector<std::uint8_t> status(n);
  std::vector<std::uint64_t> c;
  for (std::uint64_t pass = 0; pass < 2; ++pass) {
    for (std::uint64_t j = 0; j < n; ++j) {
      const std::uint64_t i = pass == 0 ? j : n - 1 - j;
      e.grid().decode(i, c);
      const strategy::WorkloadSpec ws{s.models[c[0]], s.datasets[c[1]], s.systems[c[2]], "", 0};
      const auto r = e.evaluate(i);
      status[i] = r.status;
      strategy::Prediction direct;
      try {
        direct = strategy::predict(strategy::make_workload(ws), config_of(c));
      } catch (const InputError&) {  // a 2-D model on 3-D data
        EXPECT_EQ(r.status, static_cast<std::uint8_t>(strategy::Status::Invalid)) << i;
        continue;
      }
      EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
      expect_same(r.epoch_time_s, direct.epoch_time_s, i);
      expect_same(r.memory_per_gpu_bytes, direct.memory_per_gpu_bytes, i);
    }
  }
  return status;
}

TEST(Evaluator, PointsEqualDirectPredictions) {
  SweepSpec s;
  s.models = {"resnet50", "alexnet"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data", "filter", "data+filter"};
  s.gpus = {4, 8, 128};
  s.batch = {256, 1024};
  const Evaluator e(s);
  EXPECT_EQ(e.grid().points(), 2u * 1 * 2 * 3 * 3 * 2);
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < e.grid().points(); i += 7) {
    e.grid().decode(i, c);
    strategy::WorkloadSpec ws{s.models[c[0]], s.datasets[c[1]], s.systems[c[2]], "", 0};
    strategy::Config cfg;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.gpus = s.gpus[c[4]];
    cfg.batch = s.batch[c[5]];
    const auto direct = strategy::predict(strategy::make_workload(ws), cfg);
    const auto r = e.evaluate(i);
    EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
    expect_same(r.epoch_time_s, direct.epoch_time_s, i);
    expect_same(r.memory_per_gpu_bytes, direct.memory_per_gpu_bytes, i);
  }
}

// The paradise variant through the evaluator, whose compute memo is shared by the points of
// a workload: every point (visited twice, in two orders) equals a fresh prediction without
// the memo, bit for bit.
TEST(Evaluator, ParadisePointsWithTheComputeMemoEqualFreshPredictions) {
  SweepSpec s;
  s.models = {"resnet50", "vgg16"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter", "channel", "spatial", "data+filter", "daso"};
  s.gpus = {1, 4, 8, 16};
  s.batch = {64, 128, 256};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  expect_fresh_predictions(e, s, [&](const std::vector<std::uint64_t>& c) {
    strategy::Config cfg;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.gpus = s.gpus[c[4]];
    cfg.batch = s.batch[c[5]];
    cfg.variant = strategy::Variant::Paradise;
    return cfg;
  });
}

// A precision axis (between strategy and gpus) and the sweep-wide optimizer, ZeRO stage and
// recomputation: every point (both orders, the memo shared across precisions) equals a
// fresh prediction with those settings; point() gives the same configuration.
TEST(Evaluator, PrecisionAxisAndTrainingSettingsEqualFreshPredictions) {
  SweepSpec s;
  s.models = {"resnet50", "cosmoflow"};
  s.datasets = {"imagenet", "cosmoflow"};
  s.systems = {"dgx-a100"};
  s.strategies = {"data", "spatial", "data+filter"};
  s.precisions = {strategy::Precision::Fp32, strategy::Precision::Tf32, strategy::Precision::Mixed};
  s.gpus = {1, 8, 64};
  s.batch = {64, 512};
  s.variant = strategy::Variant::Paradise;
  s.optimizers = {strategy::Optimizer::Adam};  // one value each: every point's
  s.zero_stages = {2};
  s.recomputes = {1};
  const Evaluator e(s);
  ASSERT_EQ(e.grid().axes()[4].name, "precision");
  EXPECT_EQ(e.grid().axes()[4].labels, (std::vector<std::string>{"fp32", "tf32", "mixed"}));
  const auto config_of = [&](const std::vector<std::uint64_t>& c) {
    strategy::Config cfg;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.precision = s.precisions[c[4]];
    cfg.gpus = s.gpus[c[5]];
    cfg.batch = s.batch[c[6]];
    cfg.variant = strategy::Variant::Paradise;
    cfg.optimizer = strategy::Optimizer::Adam;
    cfg.zero_stage = 2;
    cfg.recompute_activations = true;
    return cfg;
  };
  const auto status = expect_fresh_predictions(e, s, config_of);
  int feasible_by_precision[3] = {0, 0, 0};
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) {
    e.grid().decode(i, c);
    const auto p = e.point(i).config;  // the configuration point() gives is evaluate()'s
    EXPECT_EQ(p.precision, config_of(c).precision) << i;
    EXPECT_EQ(p.optimizer, strategy::Optimizer::Adam) << i;
    EXPECT_EQ(p.zero_stage, 2) << i;
    EXPECT_TRUE(p.recompute_activations) << i;
    if (status[i] == 0) ++feasible_by_precision[c[4]];
  }
  for (int k = 0; k < 3; ++k) EXPECT_GT(feasible_by_precision[k], 0) << k;
}

// Optimizer, ZeRO stage and recomputation with several values are axes too, after
// precision and in this order (one value: no axis); every point equals a fresh prediction
// with its settings (the compute memo is shared across them: recomputation scales compute
// outside it), and the memory differs along each axis where the model says it should:
// Adam > SGD (two fp32 moments), ZeRO-3 < 0 on 8 GPUs (sharded state), recomputation < none.
TEST(Evaluator, TrainingSettingAxesEqualFreshPredictions) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter"};
  s.precisions = {strategy::Precision::Mixed};  // one value: no axis
  s.optimizers = {strategy::Optimizer::Sgd, strategy::Optimizer::Adam};
  s.zero_stages = {0, 3};
  s.recomputes = {0, 1};
  s.gpus = {1, 8};
  s.batch = {64, 256};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  std::vector<std::string> names;
  for (const auto& a : e.grid().axes()) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"model", "dataset", "system", "strategy", "optimizer",
                                             "zero_stage", "recompute", "gpus", "batch"}));
  EXPECT_EQ(e.grid().axes()[6].labels, (std::vector<std::string>{"false", "true"}));
  expect_fresh_predictions(e, s, [&](const std::vector<std::uint64_t>& c) {
    strategy::Config cfg;
    cfg.variant = strategy::Variant::Paradise;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.precision = strategy::Precision::Mixed;
    cfg.optimizer = s.optimizers[c[4]];
    cfg.zero_stage = static_cast<int>(s.zero_stages[c[5]]);
    cfg.recompute_activations = c[6] == 1;
    cfg.gpus = s.gpus[c[7]];
    cfg.batch = s.batch[c[8]];
    return cfg;
  });
  // data on 8 GPUs at batch 256: each axis moves the memory the way its policy says
  const auto memory = [&](std::uint64_t opt, std::uint64_t zero, std::uint64_t rec) {
    return e.evaluate(e.grid().encode({0, 0, 0, 0, opt, zero, rec, 1, 1})).memory_per_gpu_bytes;
  };
  EXPECT_GT(memory(1, 0, 0), memory(0, 0, 0));  // Adam's moments
  EXPECT_LT(memory(1, 1, 0), memory(1, 0, 0));  // ZeRO-3 shards them, the gradients, weights
  EXPECT_LT(memory(0, 0, 1), memory(0, 0, 0));  // recomputation keeps checkpoints only
}

// The paradl variant models fp32 only: another precision on the axis is refused.
TEST(Evaluator, ParadlVariantRefusesAnotherPrecision) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.precisions = {strategy::Precision::Fp32, strategy::Precision::Mixed};
  s.gpus = {8};
  s.batch = {64};
  s.variant = strategy::Variant::Paradl;
  EXPECT_THROW((void)Evaluator(s), InputError);
  s.precisions = {strategy::Precision::Mixed};  // one value, no axis: refused as well
  EXPECT_THROW((void)Evaluator(s), InputError);
  s.precisions = {strategy::Precision::Fp32};
  EXPECT_EQ(Evaluator(s).grid().points(), 1u);
}

// The implementation axis (issue 37) comes after the training settings: each point equals a
// fresh prediction under the profile its coordinate names (a file of split layers at half
// efficiency among them: the compute memo shared by the axis must tell it apart), and
// ChainerMNX's blocking MPI exchanges make filter parallelism slower than NCCL on 32 GPUs.
TEST(Evaluator, ImplementationAxisEqualsFreshPredictions) {
  auto half = implementation::find_implementation("pytorch-nccl");
  half.name = "half";
  half.profile.split_efficiency = 0.5;
  const std::string half_file = testing::TempDir() + "/half.impl";
  std::ofstream(half_file) << implementation::implementation_file_text(half);
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter", "data+spatial"};
  s.implementations = {"pytorch-nccl", "chainermnx", half_file};
  s.precisions = {strategy::Precision::Fp32};
  s.gpus = {8, 32};
  s.batch = {256};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  std::vector<std::string> names;
  for (const auto& a : e.grid().axes()) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"model", "dataset", "system", "strategy",
                                             "implementation", "gpus", "batch"}));
  expect_fresh_predictions(e, s, [&](const std::vector<std::uint64_t>& c) {
    strategy::Config cfg;
    cfg.variant = strategy::Variant::Paradise;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[3]]);
    cfg.precision = strategy::Precision::Fp32;
    cfg.implementation = implementation::find_implementation(s.implementations[c[4]]).profile;
    cfg.gpus = s.gpus[c[5]];
    cfg.batch = s.batch[c[6]];
    return cfg;
  });
  const auto epoch = [&](std::uint64_t impl) {
    return e.evaluate(e.grid().encode({0, 0, 0, 1, impl, 1, 0})).epoch_time_s;
  };
  EXPECT_GT(epoch(1), epoch(0));
  EXPECT_GT(epoch(2), epoch(0));  // the same exchanges, slower split layers
}

// A profile that stages through the host is refused on a system without a host link, also
// when a shape axis varies faster than the implementation axis (a review finding: only the
// first settings were checked, so the second profile slipped through with p2 = 4, auto and
// was predicted at 0 B/s).
TEST(Evaluator, AHostStagedProfileNeedsAHostLinkWhateverTheShapeAxes) {
  auto no_host = system::find_system("dgx-a100");
  no_host.name = "no-host";
  no_host.host = {};
  const std::string file = testing::TempDir() + "/no_host.system";
  {
    std::ofstream out(file);
    calibrate::write_system_file(out, no_host, "a DGX A100 without its [host] section");
  }
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {file};
  s.strategies = {"data+filter"};
  s.implementations = {"pytorch-nccl", "mpi-host-staged"};
  s.p2s = {4, strategy::kSearched};
  s.gpus = {8};
  s.batch = {256};
  s.variant = strategy::Variant::Paradise;
  try {
    const Evaluator e(s);
    FAIL() << "no error";
  } catch (const InputError& x) {
    EXPECT_NE(std::string(x.what()).find("'mpi-host-staged' stages data through the host"),
              std::string::npos)
        << x.what();
  }
  s.implementations = {"pytorch-nccl"};
  EXPECT_NO_THROW(Evaluator{s});
}

// The paradl variant has no implementation profile; an unknown profile is refused by name.
TEST(Evaluator, ImplementationAxisRefusals) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.implementations = {"chainermnx"};
  s.gpus = {8};
  s.batch = {256};
  s.variant = strategy::Variant::Paradl;
  EXPECT_THROW(Evaluator{s}, InputError);
  s.variant = strategy::Variant::Paradise;
  s.implementations = {"horovod"};
  EXPECT_THROW(Evaluator{s}, InputError);
}

// A workload's footprint is at least its layer table (one LayerStats per layer, by
// definition); the sweep refuses workloads past max_workload_bytes before building them.
// The network variants of a workload share its tables and hold a system each: 2 datasets x
// 10 x 10 network values are 2 footprints and 200 systems (each at most 4 KB besides the
// struct; ABCI's names and 3 levels), far less than the 200 footprints (about 10 MB) copies
// would take.
TEST(Evaluator, WorkloadsPastMaxWorkloadBytesAreRefused) {
  const auto w = strategy::make_workload({"resnet50", "imagenet", "abci", "", 0});
  const double f = static_cast<double>(strategy::footprint_bytes(w));
  EXPECT_GE(f, static_cast<double>(w.model.layers.size() * sizeof(model::LayerStats)));
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet", "cifar10"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.gpus = {8};
  s.batch = {64};
  for (int v = 1; v <= 10; ++v) {
    s.network_bandwidth.push_back(gbit_per_s(100 * v));
    s.network_latency.push_back(microseconds(v));
  }
  const double system = sizeof(system::System);
  s.max_workload_bytes = 2 * f + 200 * system - 1;
  try {
    Evaluator e{s};
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the sweep's 2 workloads (model x dataset x resolution x "
                                         "system values) in 200 system variants"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("200 system variants"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_workload_bytes"), std::string::npos) << e.what();
  }
  s.max_workload_bytes = 2 * (f + 2048) + 200 * (system + 4096);
  EXPECT_LT(s.max_workload_bytes, 200 * f);
  EXPECT_EQ(Evaluator{s}.grid().points(), 200u);
}

// Network variants share their workload's tables; the system of the variant asked for is
// swapped in: every point, visited in grid order and then with the variants interleaved
// (each point's neighbour another variant), equals a fresh prediction on the system with
// that inter-node bandwidth and latency (system::with_inter_node), bit for bit.
TEST(Evaluator, NetworkVariantsEqualPredictionsOnTheirOwnSystem) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100"};
  s.network_bandwidth = {gbit_per_s(100), gbit_per_s(400)};
  s.network_latency = {microseconds(0.5), microseconds(20)};  // real: sub-microsecond
  s.strategies = {"data", "data+filter", "daso"};
  s.gpus = {8, 64};
  s.batch = {512};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  const std::uint64_t n = e.grid().points(), per_workload = 3 * 2 * 1;
  ASSERT_EQ(n, 2u * 2 * 2 * per_workload);
  std::vector<std::uint64_t> order;
  for (std::uint64_t i = 0; i < n; ++i) order.push_back(i);
  for (std::uint64_t j = 0; j < per_workload; ++j) {  // variant-major: 0, 6, 12, ..., 1, 7...
    for (std::uint64_t v = 0; v < n / per_workload; ++v) order.push_back(v * per_workload + j);
  }
  std::vector<std::uint64_t> c;
  int slower_network = 0;
  for (const std::uint64_t i : order) {
    e.grid().decode(i, c);  // model, dataset, system, bandwidth, latency, strategy, gpus, batch
    auto w = strategy::make_workload({s.models[c[0]], s.datasets[c[1]], s.systems[c[2]], "", 0});
    w.system = system::with_inter_node(
        w.system, static_cast<double>(s.network_bandwidth[c[3]].gbps) * 1e9 / 8,
        s.network_latency[c[4]].us * 1e-6);
    strategy::Config cfg;
    cfg.kind = *strategy::kind_from_name(s.strategies[c[5]]);
    cfg.gpus = s.gpus[c[6]];
    cfg.batch = s.batch[c[7]];
    cfg.variant = strategy::Variant::Paradise;
    // no precision in the sweep: each GPU's default, fp32 on ABCI's V100, tf32 on the A100
    cfg.precision = c[2] == 0 ? strategy::Precision::Fp32 : strategy::Precision::Tf32;
    const auto direct = strategy::predict(w, cfg);
    const auto r = e.evaluate(i);
    EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
    expect_same(r.epoch_time_s, direct.epoch_time_s, i);
    expect_same(r.epoch_communication_s, direct.epoch_communication_s, i);
    expect_same(r.memory_per_gpu_bytes, direct.memory_per_gpu_bytes, i);
    // the 4 variants of a system share one model table
    const std::uint64_t wi = i / per_workload;
    EXPECT_EQ(&e.workload(wi).model, &e.workload(wi - wi % 4).model) << i;
    // the variants differ: 100 Gbit/s and 20 us make 64 GPUs' exchange slower than 400, 1 us
    if (c[3] == 0 && c[4] == 1 && c[6] == 1) {
      const auto fast = e.evaluate(i + per_workload);  // bandwidth 400, latency 1
      slower_network += r.epoch_communication_s > fast.epoch_communication_s;
    }
  }
  EXPECT_EQ(slower_network, 2 * 2 * 3);  // each system x strategy, both visiting orders
}

// The input axes are system variants too: every point equals a fresh prediction on the
// system whose [input] values are set by hand, with a network axis beside them. CosmoFlow's
// 16.8 MB int16 volumes (4 x 128^3 x 2 B) on 64 A100s at a global batch of 1,024: 10 GB/s
// of file system deliver 596 samples/s, 1.7 s per iteration, far above the step (about 42
// ms), so the run is input-bound there; at 1,000 GB/s it takes 17 ms, and each of the 8
// nodes reads its 128 samples at 100 GB/s in 21 ms: not input-bound.
TEST(Evaluator, InputAxesEqualPredictionsOnTheirOwnSystem) {
  SweepSpec s;
  s.models = {"cosmoflow"};
  s.datasets = {"cosmoflow"};
  s.systems = {"dgx-a100"};
  s.network_latency = {microseconds(2)};
  s.input_cpu_cores = {16, 128};
  s.input_node_read_GBps = {100};
  s.input_filesystem_GBps = {10, 1000};
  s.strategies = {"data"};
  s.gpus = {64, 1024};
  s.batch = {1024};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  std::vector<std::string> names;
  for (const auto& a : e.grid().axes()) names.push_back(a.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"model", "dataset", "system", "network_latency_us",
                                      "input_cpu_cores_per_node", "input_node_read_GBps",
                                      "input_filesystem_GBps", "strategy", "gpus", "batch"}));
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) {
    e.grid().decode(i, c);
    auto w = strategy::make_workload({"cosmoflow", "cosmoflow", "dgx-a100", "", 0});
    for (auto* levels : {&w.system.levels, &w.system.host_staged_levels}) {
      for (auto& l : *levels) {
        if (l.span_gpus > w.system.gpus_per_node) l.latency_s = 2e-6;  // the axis' 2 us
      }
    }
    w.system.input.cpu_cores_per_node = s.input_cpu_cores[c[4]];
    w.system.input.node_read_Bps = 100e9;
    w.system.input.filesystem_Bps = s.input_filesystem_GBps[c[6]] * 1e9;
    strategy::Config cfg;
    cfg.variant = strategy::Variant::Paradise;
    cfg.kind = strategy::Kind::Data;
    cfg.precision = strategy::Precision::Tf32;  // the A100's default
    cfg.gpus = s.gpus[c[8]];
    cfg.batch = 1024;
    const auto direct = strategy::predict(w, cfg);
    const auto r = e.evaluate(i);
    EXPECT_EQ(r.status, static_cast<std::uint8_t>(direct.status)) << i;
    expect_same(r.epoch_time_s, direct.epoch_time_s, i);
    EXPECT_EQ(r.limit, static_cast<std::uint8_t>(direct.limit)) << i;
    if (c[8] == 0) {
      const auto input = static_cast<std::uint8_t>(strategy::Limit::Input);
      EXPECT_EQ(r.limit == input, c[6] == 0) << i;
    }
  }
}

// A network axis of one value overrides the system as one of two does (one variant, no
// system swapped in per point): bandwidth alone, latency alone and both, each point equal to
// a fresh prediction on system::with_inter_node's system, and ABCI's data-parallel exchange
// on 64 GPUs (8 nodes) slower at 1 Gbit/s or 10 ms than on its own EDR network.
TEST(Evaluator, ANetworkAxisOfOneValueOverridesTheSystem) {
  struct Case {
    std::vector<NetworkBandwidth> bandwidth;
    std::vector<NetworkLatency> latency;
  };
  const auto slow = gbit_per_s(1);
  const auto far = microseconds(10000);
  for (const auto& [bandwidth, latency] :
       {Case{{slow}, {}}, Case{{}, {far}}, Case{{slow}, {far}}}) {
    SweepSpec s;
    s.models = {"resnet50"};
    s.datasets = {"imagenet"};
    s.systems = {"abci"};
    s.network_bandwidth = bandwidth;
    s.network_latency = latency;
    s.strategies = {"data", "filter"};
    s.gpus = {64};
    s.batch = {64};
    s.variant = strategy::Variant::Paradise;
    const Evaluator e(s);
    ASSERT_EQ(e.grid().points(), 2u);
    const auto own = strategy::make_workload({"resnet50", "imagenet", "abci", "", 0});
    auto w = own;
    w.system =
        system::with_inter_node(w.system, bandwidth.empty() ? 0 : 1e9 / 8,  // 1 Gbit/s in bytes/s
                                latency.empty() ? 0 : 10000e-6);            // 10,000 us in seconds
    for (std::uint64_t i = 0; i < 2; ++i) {
      strategy::Config cfg;
      cfg.kind = *strategy::kind_from_name(s.strategies[i]);
      cfg.gpus = 64;
      cfg.batch = 64;
      cfg.variant = strategy::Variant::Paradise;
      const auto direct = strategy::predict(w, cfg);
      const auto r = e.evaluate(i);
      expect_same(r.epoch_time_s, direct.epoch_time_s, i);
      expect_same(r.epoch_communication_s, direct.epoch_communication_s, i);
      EXPECT_GT(r.epoch_communication_s, strategy::predict(own, cfg).epoch_communication_s)
          << s.strategies[i] << " " << bandwidth.size() << " " << latency.size();
    }
  }
}

// Issue 39: a sweep with auto among the values of spatial_split, p2 and segments equals, at
// every point, the best of the explicit values beside it (the lists hold every value auto
// tries: each divisor of 16 and 64 GPUs from 2, each power of two up to a replica's batch of
// 256, both splits of a 2-D sample), by the documented order (feasible, then the shorter
// epoch, ties to the first), and records the value that won.
TEST(Evaluator, AutoAxesEqualTheBestOfTheExplicitValues) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"dgx-a100"};
  s.strategies = {"spatial", "data+filter", "data+spatial", "pipeline", "data+pipeline"};
  s.variant = strategy::Variant::Paradise;
  s.spatial_splits = {strategy::SpatialSplit::W, strategy::SpatialSplit::All,
                      strategy::SpatialSplit::Auto};
  s.p2s = {2, 4, 8, 16, 32, 64, strategy::kSearched};
  s.segment_counts = {1, 2, 4, 8, 16, 32, 64, 128, 256, strategy::kSearched};
  s.gpus = {16, 64};
  s.batch = {256};
  const Evaluator e(s);
  const Searched searched = searched_shapes(s);
  EXPECT_TRUE(searched.p2 && searched.segments && searched.spatial_split);
  std::vector<std::string> names;
  for (const auto& a : e.grid().axes()) names.push_back(a.name);
  ASSERT_EQ(names, (std::vector<std::string>{"model", "dataset", "system", "strategy",
                                             "spatial_split", "p2", "segments", "gpus", "batch"}));
  const auto& axes = e.grid().axes();
  std::vector<std::uint64_t> c;
  std::size_t compared = 0, chosen_not_first = 0;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) {
    e.grid().decode(i, c);
    const PointResult searched_point = e.evaluate(i);
    for (const std::size_t a : {std::size_t{4}, std::size_t{5}, std::size_t{6}}) {
      const std::uint64_t last = axes[a].size() - 1;  // auto, the list's last value
      if (c[a] != last) continue;
      // the best explicit value of this axis, the others as at the point
      std::optional<PointResult> best;
      auto x = c;
      for (x[a] = 0; x[a] < last; ++x[a]) {
        const PointResult r = e.evaluate(e.grid().encode(x));
        const bool better =
            !best || r.status < best->status ||
            (r.status == best->status && r.status == 0 && r.epoch_time_s < best->epoch_time_s) ||
            (r.status == best->status && r.status == 1 &&
             r.memory_per_gpu_bytes < best->memory_per_gpu_bytes);
        if (better) best = r;
      }
      SCOPED_TRACE(axes[3].labels[c[3]] + " " + axes[a].name + " at point " + std::to_string(i));
      EXPECT_EQ(searched_point.status, best->status);
      if (best->status != 2) {
        EXPECT_EQ(searched_point.epoch_time_s, best->epoch_time_s);
        EXPECT_EQ(searched_point.memory_per_gpu_bytes, best->memory_per_gpu_bytes);
      }
      EXPECT_EQ(searched_point.p2_used, best->p2_used);
      EXPECT_EQ(searched_point.segments_used, best->segments_used);
      EXPECT_EQ(searched_point.spatial_split_used, best->spatial_split_used);
      ++compared;
      const PointResult first = e.evaluate(e.grid().encode([&] {
        auto y = c;
        y[a] = 0;
        return y;
      }()));
      chosen_not_first += first.epoch_time_s != searched_point.epoch_time_s ? 1 : 0;
    }
  }
  EXPECT_GT(compared, 500u);
  EXPECT_GT(chosen_not_first, 50u);  // auto chose other than the first value, often
}

// The shapes a point used: its strategy's (0 where it has none, or the point is invalid).
TEST(Evaluator, ShapesUsedAreRecordedPerPoint) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "data+filter", "spatial", "pipeline"};
  s.variant = strategy::Variant::Paradise;
  s.gpus = {8};
  s.batch = {256};
  const Evaluator e(s);
  EXPECT_FALSE(searched_shapes(s).any());
  const auto at = [&](std::uint64_t k) { return e.evaluate(e.grid().encode({0, 0, 0, k, 0, 0})); };
  EXPECT_EQ(at(0).p2_used, 0);
  EXPECT_EQ(at(1).p2_used, 4);             // the default: ABCI's 4 GPUs per node
  EXPECT_EQ(at(2).spatial_split_used, 1);  // W (1 + SpatialSplit::W)
  EXPECT_EQ(at(3).segments_used, 8);       // as many as stages, 8
  EXPECT_EQ(at(3).p2_used, 0);
}

TEST(Evaluator, UnknownNamesAreInputErrors) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  s.gpus = {1};
  s.batch = {1};
  s.strategies = {"zigzag"};
  EXPECT_THROW(Evaluator{s}, InputError);
  s.strategies = {"data"};
  s.systems = {"summit"};
  EXPECT_THROW(Evaluator{s}, InputError);
}

}  // namespace
}  // namespace paradise::sweep
