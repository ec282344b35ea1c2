// sweep::Summary (status counts, fastest point per model, Pareto fronts per group) against
// brute force over every point of small grids: O(n^2) fronts from Evaluator::evaluate,
// grouped by coordinates from Grid::decode; and the same after splitting the points into
// pieces, serialising each piece's summary and merging the bytes.
#include "paradise/sweep/summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "paradise/core/error.hpp"
#include "paradise/sweep/evaluator.hpp"

namespace paradise::sweep {
namespace {

// 3 models x 2 datasets x 2 systems x 5 strategies x 8 GPU counts x 9 batches = 4320 points.
// cosmoflow on imagenet and resnet50/vgg16 on cosmoflow (2-D model, 3-D data) are invalid,
// small GPU counts with large batches run out of memory: all three statuses occur.
SweepSpec small_spec() {
  SweepSpec s;
  s.models = {"resnet50", "vgg16", "cosmoflow"};
  s.datasets = {"imagenet", "cosmoflow"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data", "filter", "data+filter", "spatial", "pipeline"};
  s.gpus = {1, 2, 4, 8, 16, 32, 64, 128};
  s.batch = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  return s;
}

std::vector<PointResult> evaluate_all(const Evaluator& e) {
  std::vector<PointResult> r;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) r.push_back(e.evaluate(i));
  return r;
}

std::size_t axis_of(const Grid& g, const std::string& name) {
  for (std::size_t a = 0; a < g.axes().size(); ++a) {
    if (g.axes()[a].name == name) return a;
  }
  ADD_FAILURE() << "no axis " << name;
  return 0;
}

// The objectives, written out from their definitions (summary.hpp): GPU-hours are GPU-hours
// per epoch, epoch seconds x GPUs / 3600 (summary.cpp computes it in this same order, so the
// doubles are identical and ties are ties in both).
double objective(Objective o, const PointResult& r, std::int64_t gpus) {
  switch (o) {
    case Objective::EpochTime:
      return r.epoch_time_s;
    case Objective::IterationTime:
      return r.iteration_time_s;
    case Objective::Gpus:
      return static_cast<double>(gpus);
    case Objective::GpuHours:
      return r.epoch_time_s * static_cast<double>(gpus) / 3600.0;
    case Objective::MemoryPerGpu:
      return r.memory_per_gpu_bytes;
    case Objective::TimeToTrain:  // docs/time-to-train.md: epochs to target x epoch
      return r.epoch_time_s * r.epochs_to_target;
    case Objective::GpuHoursToTrain:
      return r.epoch_time_s * r.epochs_to_target * static_cast<double>(gpus) / 3600.0;
  }
  return 0;
}

// Obviously-correct O(n^2) front: keep what nothing dominates (no worse in every objective,
// better in one); exact duplicates keep the lowest index. A two-objective front's thirds are
// all 0. Sorted by the objectives in order, then the index (summary.hpp).
std::vector<Candidate> brute_force_front(const std::vector<Candidate>& c) {
  std::vector<Candidate> front;
  for (const auto& x : c) {
    bool dominated = false;
    for (const auto& y : c) {
      const bool no_worse = y.first <= x.first && y.second <= x.second && y.third <= x.third;
      const bool better = y.first < x.first || y.second < x.second || y.third < x.third;
      const bool same_earlier =
          y.first == x.first && y.second == x.second && y.third == x.third && y.index < x.index;
      if ((no_worse && better) || same_earlier) dominated = true;
    }
    if (!dominated) front.push_back(x);
  }
  std::sort(front.begin(), front.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.first, a.second, a.third, a.index) <
           std::tie(b.first, b.second, b.third, b.index);
  });
  return front;
}

// Every group's front over the feasible (status ok) points, groups in row-major order of
// their coordinates on the group axes taken in grid order (a std::map over the coordinate
// vectors orders them so). Group names absent from the grid are skipped, as documented.
std::vector<Candidate> brute_force_fronts(const Evaluator& e, const std::vector<PointResult>& r,
                                          const ParetoSpec& p) {
  const Grid& g = e.grid();
  std::vector<std::size_t> group_axes;
  for (std::size_t a = 0; a < g.axes().size(); ++a) {
    if (std::find(p.group.begin(), p.group.end(), g.axes()[a].name) != p.group.end())
      group_axes.push_back(a);
  }
  const std::size_t gpus_axis = axis_of(g, "gpus");
  std::map<std::vector<std::uint64_t>, std::vector<Candidate>> groups;
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    if (r[i].status != 0) continue;
    g.decode(i, c);
    std::vector<std::uint64_t> key;
    for (std::size_t a : group_axes) key.push_back(c[a]);
    const std::int64_t gpus = g.axes()[gpus_axis].values[c[gpus_axis]];
    const auto& o = p.objectives;
    groups[key].push_back({objective(o[0], r[i], gpus), objective(o[1], r[i], gpus),
                           o.size() > 2 ? objective(o[2], r[i], gpus) : 0.0, i});
  }
  std::vector<Candidate> out;
  for (const auto& [key, candidates] : groups) {
    const auto f = brute_force_front(candidates);
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

void expect_same_fronts(const std::vector<Candidate>& got, const std::vector<Candidate>& want,
                        const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, want[i].index) << what << " front entry " << i;
    EXPECT_DOUBLE_EQ(got[i].first, want[i].first) << what << " front entry " << i;
    EXPECT_DOUBLE_EQ(got[i].second, want[i].second) << what << " front entry " << i;
    EXPECT_DOUBLE_EQ(got[i].third, want[i].third) << what << " front entry " << i;
  }
}

std::array<std::uint64_t, 3> brute_force_counts(const std::vector<PointResult>& r) {
  std::array<std::uint64_t, 3> n{};
  for (const auto& x : r) ++n[x.status];
  return n;
}

// Per value of the model axis (the first): the feasible point with the shortest epoch, the
// lowest index on ties (a strict < while scanning in index order keeps the first).
std::vector<Best> brute_force_best(const Evaluator& e, const std::vector<PointResult>& r) {
  const Grid& g = e.grid();
  std::vector<Best> best(g.axes()[0].size());
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    if (r[i].status != 0) continue;
    g.decode(i, c);
    Best& b = best[c[0]];
    if (!b.found || r[i].epoch_time_s < b.epoch_time_s) b = {r[i].epoch_time_s, i, 1};
  }
  return best;
}

void expect_same_best(const std::vector<Best>& got, const std::vector<Best>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t m = 0; m < got.size(); ++m) {
    EXPECT_EQ(got[m].found, want[m].found) << what << " model " << m;
    if (!want[m].found) continue;
    EXPECT_EQ(got[m].index, want[m].index) << what << " model " << m;
    EXPECT_EQ(got[m].epoch_time_s, want[m].epoch_time_s) << what << " model " << m;
  }
}

// The objectives and groupings checked: the default (epoch time, GPUs, memory), pairs with
// GPU-hours and memory, three in another order, a grouping by model only (over 256 feasible
// points a group: the size at which a group is compacted while adding), by two axes named
// out of grid order, and no grouping at all (one front).
std::vector<ParetoSpec> pareto_specs() {
  const auto group = ParetoSpec{}.group;
  std::vector<ParetoSpec> out;
  out.push_back(ParetoSpec{});
  out.push_back({{Objective::EpochTime, Objective::GpuHours}, group});
  out.push_back({{Objective::EpochTime, Objective::MemoryPerGpu}, group});
  out.push_back({{Objective::GpuHours, Objective::Gpus}, {"model"}});
  out.push_back(
      {{Objective::MemoryPerGpu, Objective::GpuHours, Objective::IterationTime}, {"model"}});
  out.push_back({{Objective::IterationTime, Objective::GpuHours}, {"system", "model"}});
  out.push_back({{Objective::MemoryPerGpu, Objective::EpochTime}, {}});
  out.push_back({{Objective::EpochTime, Objective::Gpus, Objective::MemoryPerGpu}, {}});
  return out;
}

std::string name_of(const ParetoSpec& p) {
  std::string s;
  for (const auto o : p.objectives) s += (s.empty() ? "" : "/") + std::string(objective_column(o));
  s += " by";
  for (const auto& g : p.group) s += " " + g;
  return s;
}

TEST(Summary, TheGridCoversEveryStatusAndEveryModelHasAFeasiblePoint) {
  // guards the other tests against a grid where a check would be empty
  const Evaluator e(small_spec());
  const auto r = evaluate_all(e);
  const auto n = brute_force_counts(r);
  EXPECT_GT(n[0], 100u);
  EXPECT_GT(n[1], 10u);
  EXPECT_GT(n[2], 10u);
  for (const auto& b : brute_force_best(e, r)) EXPECT_EQ(b.found, 1u);
  // more than 256 feasible points for resnet50 and vgg16: grouped by model, their groups are
  // compacted to a front while points are still being added
  std::vector<std::uint64_t> feasible(e.grid().axes()[0].size(), 0);
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) {
    e.grid().decode(i, c);
    if (r[i].status == 0) ++feasible[c[0]];
  }
  EXPECT_GT(feasible[0], 256u);
  EXPECT_GT(feasible[1], 256u);
}

TEST(Summary, TiesGoToTheLowestIndexWhateverTheOrderOfAddingOrMerging) {
  // repeated axis values make points with identical results at different indices: the
  // brute force keeps the lowest index of a tie (front and best point), and so must the
  // summary when the points come in reverse or from pieces merged in reverse
  SweepSpec s;
  s.models = {"alexnet", "resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100", "abci"};
  s.strategies = {"data", "filter", "data"};
  s.gpus = {4, 8, 4, 16};
  s.batch = {256, 64, 256};
  const Evaluator e(s);
  const auto r = evaluate_all(e);
  for (const ParetoSpec& p :
       {ParetoSpec{}, ParetoSpec{{Objective::EpochTime, Objective::GpuHours}, {"model"}},
        ParetoSpec{{Objective::MemoryPerGpu, Objective::IterationTime}, {}}}) {
    const auto want = brute_force_fronts(e, r, p);
    Summary backwards(e.grid(), p);
    for (std::uint64_t i = e.grid().points(); i-- > 0;) backwards.add(i, r[i]);
    expect_same_fronts(backwards.fronts(), want, name_of(p) + " backwards");
    expect_same_best(backwards.best(), brute_force_best(e, r), name_of(p) + " backwards");
    std::vector<Summary> pieces(3, Summary(e.grid(), p));
    for (std::uint64_t i = 0; i < e.grid().points(); ++i) pieces[i % 3].add(i, r[i]);
    Summary merged(e.grid(), p);
    for (std::size_t j = 3; j-- > 0;) merged.merge(pieces[j].to_bytes());
    expect_same_fronts(merged.fronts(), want, name_of(p) + " merged");
    expect_same_best(merged.best(), brute_force_best(e, r), name_of(p) + " merged");
  }
}

TEST(Summary, FrontsCountsAndBestEqualBruteForce) {
  const Evaluator e(small_spec());
  const auto r = evaluate_all(e);
  for (const auto& p : pareto_specs()) {
    Summary s(e.grid(), p);
    for (std::uint64_t i = 0; i < e.grid().points(); ++i) s.add(i, r[i]);
    const auto want = brute_force_fronts(e, r, p);
    EXPECT_GT(want.size(), 1u) << name_of(p);
    expect_same_fronts(s.fronts(), want, name_of(p));
    // fronts() compacts; asking twice gives the same
    expect_same_fronts(s.fronts(), want, name_of(p) + " (again)");
    EXPECT_EQ(s.counts(), brute_force_counts(r)) << name_of(p);
    expect_same_best(s.best(), brute_force_best(e, r), name_of(p));
  }
}

TEST(Summary, PointsAddedInAnyOrderGiveTheSameResult) {
  // the fronts and the best point break ties by index, not by arrival
  const Evaluator e(small_spec());
  const auto r = evaluate_all(e);
  const ParetoSpec p{{Objective::EpochTime, Objective::GpuHours}, {"model"}};
  Summary s(e.grid(), p);
  for (std::uint64_t i = e.grid().points(); i-- > 0;) s.add(i, r[i]);
  expect_same_fronts(s.fronts(), brute_force_fronts(e, r, p), "reversed");
  expect_same_best(s.best(), brute_force_best(e, r), "reversed");
}

TEST(Summary, MergedPiecesEqualOneSummaryOfAllPoints) {
  const Evaluator e(small_spec());
  const auto r = evaluate_all(e);
  const std::uint64_t n = e.grid().points();
  for (const auto& p : pareto_specs()) {
    Summary whole(e.grid(), p);
    for (std::uint64_t i = 0; i < n; ++i) whole.add(i, r[i]);
    const auto whole_fronts = whole.fronts();
    for (std::uint64_t k : {2u, 3u, 7u}) {
      for (bool interleaved : {false, true}) {
        const std::string what =
            name_of(p) + " k=" + std::to_string(k) + (interleaved ? " interleaved" : " contiguous");
        // piece j: points j, j + k, j + 2k, ... (interleaved) or [j n / k, (j + 1) n / k)
        std::vector<Summary> pieces(k, Summary(e.grid(), p));
        for (std::uint64_t i = 0; i < n; ++i) pieces[interleaved ? i % k : i * k / n].add(i, r[i]);
        Summary merged(e.grid(), p);
        for (auto& piece : pieces) merged.merge(piece.to_bytes());
        expect_same_fronts(merged.fronts(), whole_fronts, what);
        EXPECT_EQ(merged.counts(), whole.counts()) << what;
        expect_same_best(merged.best(), whole.best(), what);
        // merging in the opposite order, into a summary that already holds the last piece's
        // points directly, gives the same again
        Summary reversed = pieces.back();
        for (std::size_t j = k - 1; j-- > 0;) reversed.merge(pieces[j].to_bytes());
        expect_same_fronts(reversed.fronts(), whole_fronts, what + " reversed");
        EXPECT_EQ(reversed.counts(), whole.counts()) << what << " reversed";
        expect_same_best(reversed.best(), whole.best(), what + " reversed");
      }
    }
    // and the merged result is the brute-force one
    expect_same_fronts(whole_fronts, brute_force_fronts(e, r, p), name_of(p));
  }
}

TEST(Summary, BytesRoundTripAndAnEmptySummaryMergesAsNothing) {
  const Evaluator e(small_spec());
  const auto r = evaluate_all(e);
  const ParetoSpec p{{Objective::EpochTime, Objective::MemoryPerGpu}, {"model", "batch"}};
  Summary s(e.grid(), p);
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) s.add(i, r[i]);
  Summary empty(e.grid(), p);
  EXPECT_TRUE(empty.fronts().empty());
  EXPECT_EQ(empty.counts(), (std::array<std::uint64_t, 3>{0, 0, 0}));
  for (const auto& b : empty.best()) EXPECT_EQ(b.found, 0u);
  Summary copy(e.grid(), p);
  copy.merge(s.to_bytes());
  copy.merge(empty.to_bytes());
  expect_same_fronts(copy.fronts(), brute_force_fronts(e, r, p), "round trip");
  EXPECT_EQ(copy.counts(), brute_force_counts(r));
  expect_same_best(copy.best(), brute_force_best(e, r), "round trip");
}

TEST(Summary, AFrontOfThousandsIsCompactedAndMergedExactly) {
  // 3,000 feasible points in one front (no group), epoch time rising as memory falls, every
  // tenth a duplicate of its predecessor's values and every seventh dominated: the group is
  // compacted again and again past 256 (at twice its last front) while its front grows;
  // the result is the brute force's, whole and merged from two pieces
  const Evaluator e(small_spec());
  ParetoSpec p;
  p.group = {};
  std::vector<PointResult> r(e.grid().points());
  std::vector<Candidate> all;
  const auto gpus_axis = axis_of(e.grid(), "gpus");
  std::vector<std::uint64_t> c;
  Summary whole(e.grid(), p), left(e.grid(), p), right(e.grid(), p);
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const std::uint64_t k = i % 10 == 9 ? i - 1 : i;
    r[i].epoch_time_s = 1.0 + static_cast<double>(k);
    r[i].iteration_time_s = r[i].epoch_time_s;
    r[i].memory_per_gpu_bytes = 1e9 - static_cast<double>(k) * (i % 7 == 6 ? 0.5 : 1.0);
    if (i % 7 == 6) r[i].epoch_time_s += 2.0;  // slower than its neighbours, barely leaner
    e.grid().decode(i, c);
    const auto g = e.grid().axes()[gpus_axis].values[c[gpus_axis]];
    all.push_back({objective(p.objectives[0], r[i], g), objective(p.objectives[1], r[i], g),
                   objective(p.objectives[2], r[i], g), i});
    whole.add(i, r[i]);
    (i % 2 ? left : right).add(i, r[i]);
  }
  const auto want = brute_force_front(all);
  EXPECT_GT(want.size(), 1000u);
  expect_same_fronts(whole.fronts(), want, "whole");
  Summary merged(e.grid(), p);
  merged.merge(right.to_bytes());
  merged.merge(left.to_bytes());
  expect_same_fronts(merged.fronts(), want, "merged");
}

TEST(Summary, ForeignOrTruncatedBytesAreRefused) {
  const Evaluator e(small_spec());
  const ParetoSpec p;
  Summary s(e.grid(), p);
  for (std::uint64_t i = 0; i < 200; ++i) s.add(i, e.evaluate(i));
  auto bytes = s.to_bytes();
  Summary into(e.grid(), p);
  EXPECT_THROW(into.merge(std::span(bytes).first(bytes.size() - 1)), std::runtime_error);
  EXPECT_THROW(into.merge(std::span(bytes).first(5)), std::runtime_error);
  bytes.push_back(0);  // trailing garbage
  EXPECT_THROW(into.merge(bytes), std::runtime_error);
  // a grid with another number of models has another number of best points
  SweepSpec other = small_spec();
  other.models = {"resnet50", "vgg16"};
  const Evaluator e2(other);
  Summary s2(e2.grid(), p);
  Summary into2(e.grid(), p);
  EXPECT_THROW(into2.merge(s2.to_bytes()), std::runtime_error);
}

TEST(Summary, AModelWithoutFeasiblePointsHasNoBest) {
  // cosmoflow (3-D) cannot take imagenet (2-D): all its points are invalid
  SweepSpec s;
  s.models = {"cosmoflow", "alexnet"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data", "filter"};
  s.gpus = {1, 4, 16};
  s.batch = {64, 512};
  const Evaluator e(s);
  const auto r = evaluate_all(e);
  Summary sum(e.grid(), ParetoSpec{});
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) sum.add(i, r[i]);
  const auto want = brute_force_best(e, r);
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(want[0].found, 0u);
  EXPECT_EQ(want[1].found, 1u);
  expect_same_best(sum.best(), want, "cosmoflow on imagenet");
  EXPECT_EQ(sum.counts(), brute_force_counts(r));
  EXPECT_GE(sum.counts()[2], 12u);  // at least cosmoflow's 1 x 2 x 3 x 2 points
}

TEST(Summary, GroupsByResolutionWhenTheGridHasIt) {
  // the default grouping names resolution: with a resolution axis each side is its own group
  SweepSpec s;
  s.models = {"cosmoflow"};
  s.datasets = {"cosmoflow"};
  s.resolution = {64, 128, 192};
  s.systems = {"abci"};
  s.strategies = {"data", "spatial", "data+spatial", "filter"};
  s.gpus = {1, 2, 4, 8, 16, 32, 64, 128};
  s.batch = {16, 64};
  const Evaluator e(s);
  const auto r = evaluate_all(e);
  for (const ParetoSpec& p :
       {ParetoSpec{}, ParetoSpec{{Objective::EpochTime, Objective::GpuHours}, {"resolution"}}}) {
    Summary sum(e.grid(), p);
    // the default's precision is skipped: this grid has no precision axis
    const std::vector<std::string> present =
        p.group.size() == 1 ? p.group
                            : std::vector<std::string>{"model", "dataset", "resolution", "batch"};
    EXPECT_EQ(sum.pareto().group, present);
    for (std::uint64_t i = 0; i < e.grid().points(); ++i) sum.add(i, r[i]);
    const auto want = brute_force_fronts(e, r, p);
    EXPECT_GT(want.size(), 3u) << name_of(p);
    expect_same_fronts(sum.fronts(), want, name_of(p));
  }
}

TEST(Summary, GroupsByPrecisionWhenTheGridHasIt) {
  // the default grouping names precision: with a precision axis each precision has its own
  // fronts (mixed is faster at every point here and would leave no fp32 point on a shared
  // front; brute force over the points finds the same fronts)
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"dgx-a100"};
  s.strategies = {"data", "data+filter"};
  s.precisions = {strategy::Precision::Fp32, strategy::Precision::Mixed};
  s.gpus = {1, 2, 4, 8, 16};
  s.batch = {64, 256};
  s.variant = strategy::Variant::Paradise;
  const Evaluator e(s);
  const auto r = evaluate_all(e);
  Summary sum(e.grid(), ParetoSpec{});
  EXPECT_EQ(sum.pareto().group,
            (std::vector<std::string>{"model", "dataset", "precision", "batch"}));
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) sum.add(i, r[i]);
  const auto want = brute_force_fronts(e, r, ParetoSpec{});
  const auto got = sum.fronts();
  expect_same_fronts(got, want, "precision groups");
  // a front for each precision x batch: 4 groups (precision is axis 4, batch axis 6)
  std::set<std::pair<std::uint64_t, std::uint64_t>> groups;
  std::vector<std::uint64_t> c;
  for (const auto& x : got) {
    e.grid().decode(x.index, c);
    groups.insert({c[4], c[6]});
  }
  EXPECT_EQ(groups.size(), 4u);
}

TEST(Summary, AbsentResolutionOrPrecisionIsSkippedOtherUnknownGroupAxesThrow) {
  const Evaluator e(small_spec());
  const Summary s(e.grid(), ParetoSpec{});
  EXPECT_EQ(s.pareto().group, (std::vector<std::string>{"model", "dataset", "batch"}));
  ParetoSpec bad;
  bad.group = {"model", "network_latency_us"};  // absent, and not one of the default's
  EXPECT_THROW((void)Summary(e.grid(), bad), InputError);
  bad.group = {"model", "model"};
  EXPECT_THROW((void)Summary(e.grid(), bad), InputError);
}

TEST(AxisSubset, UnknownOrRepeatedAxesThrowInputError) {
  const Grid g({Axis{"a", {"x", "y"}, {}}, Axis{"b", {}, {1, 2, 3}}, Axis{"c", {}, {5, 6}}});
  EXPECT_THROW((void)AxisSubset(g, {"a", "d"}), InputError);
  EXPECT_THROW((void)AxisSubset(g, {"resolution"}), InputError);
  EXPECT_THROW((void)AxisSubset(g, {"b", "b"}), InputError);
  EXPECT_NO_THROW((void)AxisSubset(g, {}));
}

TEST(AxisSubset, FlatIndexOverTheNamedAxesInGridOrder) {
  // of(i) = row-major index of i's coordinates on the named axes, taken in grid order
  // whatever the order of the names: for {c, a}, a * |c| + c
  const Grid g({Axis{"a", {"x", "y"}, {}}, Axis{"b", {}, {1, 2, 3}}, Axis{"c", {}, {5, 6, 7, 8}}});
  const AxisSubset ca(g, {"c", "a"});
  EXPECT_EQ(ca.size(), 8u);
  EXPECT_EQ(ca.axes(), (std::vector<std::size_t>{0, 2}));
  const AxisSubset none(g, {});
  EXPECT_EQ(none.size(), 1u);
  std::vector<std::uint64_t> c;
  for (std::uint64_t i = 0; i < g.points(); ++i) {
    g.decode(i, c);
    EXPECT_EQ(ca.of(i), c[0] * 4 + c[2]) << i;
    EXPECT_EQ(none.of(i), 0u) << i;
  }
}

TEST(Objective, NamesAndColumns) {
  // the names and columns listed in summary.hpp
  const std::vector<std::pair<std::string, Objective>> names{
      {"epoch_time", Objective::EpochTime},
      {"iteration_time", Objective::IterationTime},
      {"gpus", Objective::Gpus},
      {"gpu_hours", Objective::GpuHours},
      {"memory", Objective::MemoryPerGpu},
      {"time_to_train", Objective::TimeToTrain},
      {"gpu_hours_to_train", Objective::GpuHoursToTrain}};
  const std::vector<std::string> columns{
      "epoch_time_s",    "iteration_time_s",  "gpus", "gpu_hours", "memory_per_gpu_bytes",
      "time_to_train_s", "gpu_hours_to_train"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(objective_from_name(names[i].first), names[i].second) << names[i].first;
    EXPECT_EQ(objective_column(names[i].second), columns[i]);
  }
  for (const char* bad : {"", "epoch", "epoch_time_s", "Epoch_Time", "gpu-hours", "memory_per_gpu",
                          " gpus", "gpus "}) {
    EXPECT_FALSE(objective_from_name(bad).has_value()) << "'" << bad << "'";
  }
}

TEST(Objective, ValuesFromAPointAndItsGpus) {
  // hand-made point: 7200 s per epoch on 8 GPUs is 16 GPU-hours per epoch
  PointResult r;
  r.epoch_time_s = 7200;
  r.iteration_time_s = 0.5;
  r.memory_per_gpu_bytes = 3e9;
  EXPECT_EQ(objective_value(Objective::EpochTime, r, 8), 7200.0);
  EXPECT_EQ(objective_value(Objective::IterationTime, r, 8), 0.5);
  EXPECT_EQ(objective_value(Objective::Gpus, r, 8), 8.0);
  EXPECT_EQ(objective_value(Objective::GpuHours, r, 8), 16.0);
  EXPECT_EQ(objective_value(Objective::MemoryPerGpu, r, 8), 3e9);
  // 40 epochs to target: 288,000 s to train, 640 GPU-hours
  r.epochs_to_target = 40;
  EXPECT_EQ(objective_value(Objective::TimeToTrain, r, 8), 288000.0);
  EXPECT_EQ(objective_value(Objective::GpuHoursToTrain, r, 8), 640.0);
}

// A sweep's to-train objective: each point's epochs are the built-in E(B) of its model and
// dataset at its batch (or the [convergence] value given), the front's fastest point to
// train is the brute-force least epoch x epochs, and a model without epochs is refused.
TEST(Summary, TimeToTrainFrontByHand) {
  SweepSpec s;
  s.models = {"resnet50", "vgg16"};
  s.datasets = {"imagenet"};
  s.systems = {"dgx-a100"};
  s.strategies = {"data"};
  s.gpus = {64, 256, 1024};
  s.batch = {1024, 4096, 16384, 65536};
  s.variant = strategy::Variant::Paradise;
  s.needs_epochs = true;
  try {
    const Evaluator refused(s);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("none for model 'vgg16' on dataset 'imagenet'"),
              std::string::npos)
        << e.what();
  }
  s.convergence["vgg16"] = model::Convergence{74, 20000, "test"};
  const Evaluator e(s);
  const ParetoSpec p{{Objective::TimeToTrain, Objective::Gpus}, {"model"}};
  Summary summary(e.grid(), p);
  std::vector<std::uint64_t> c;
  std::vector<double> best(2, std::numeric_limits<double>::infinity());
  for (std::uint64_t i = 0; i < e.grid().points(); ++i) {
    const auto r = e.evaluate(i);
    e.grid().decode(i, c);  // model, dataset, system, strategy, gpus, batch
    const double batch = static_cast<double>(s.batch[c[5]]);
    const double epochs = c[0] == 0 ? 33.66 * (1 + batch / 44296) : 74 * (1 + batch / 20000);
    EXPECT_DOUBLE_EQ(r.epochs_to_target, epochs) << i;
    summary.add(i, r);
    if (r.status == 0) best[c[0]] = std::min(best[c[0]], r.epoch_time_s * epochs);
  }
  const auto front = summary.fronts();
  for (std::size_t m = 0; m < 2; ++m) {
    double least = std::numeric_limits<double>::infinity();
    for (const auto& x : front) {
      e.grid().decode(x.index, c);
      if (c[0] == m) least = std::min(least, x.first);
    }
    EXPECT_DOUBLE_EQ(least, best[m]) << m;
  }
}

}  // namespace
}  // namespace paradise::sweep
