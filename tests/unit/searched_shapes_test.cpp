// Searched shapes (docs/cost-model.md §searched-shapes): p2 and segments = auto predict every
// value that can be and keep the best, by the documented order: feasible before out of
// memory before invalid, then the shorter epoch (feasible) or the smaller footprint (out of
// memory), ties to the smallest value. The expected answers are brute force over explicit
// values, enumerated here by trial division (not by the search's own divisor walk).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/evaluator.hpp"

namespace paradise::strategy {
namespace {

// Every divisor of n from `from` up, ascending, by trial division.
std::vector<std::int64_t> divisors(std::int64_t n, std::int64_t from) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = from; d <= n; ++d) {
    if (n % d == 0) out.push_back(d);
  }
  return out;
}

// Whether `a` ranks before `b` by the documented order.
bool ranks_before(const Prediction& a, const Prediction& b) {
  if (a.status != b.status) return a.status < b.status;
  if (a.status == Status::Ok) return a.epoch_time_s < b.epoch_time_s;
  return a.status == Status::OutOfMemory && a.memory_per_gpu_bytes < b.memory_per_gpu_bytes;
}

// The best explicit prediction over `values`, set into the configuration by `set`, and
// the value it had.
template <class Set>
std::pair<Prediction, std::int64_t> best_of(const Workload& w, Config c,
                                            const std::vector<std::int64_t>& values, Set set) {
  std::optional<Prediction> best;
  std::int64_t at = 0;
  for (const auto v : values) {
    set(c, v);
    const auto p = predict(w, c);
    if (!best || ranks_before(p, *best)) {
      best = p;
      at = v;
    }
  }
  return {*best, at};
}

Config config(Kind k, std::int64_t gpus, std::int64_t batch) {
  Config c;
  c.variant = Variant::Paradise;
  c.kind = k;
  c.gpus = gpus;
  c.batch = batch;
  return c;
}

void expect_same(const Prediction& searched, const Prediction& best) {
  EXPECT_EQ(searched.status, best.status);
  EXPECT_EQ(searched.epoch_time_s, best.epoch_time_s);
  EXPECT_EQ(searched.memory_per_gpu_bytes, best.memory_per_gpu_bytes);
}

// ResNet-50 on 64 V100s: data+filter's groups of 2 to 64 GPUs (from 16 up out of memory), and
// data+spatial's on CosmoFlow, where larger groups are what fits.
TEST(SearchedShapes, AutoP2IsTheBestOfEveryGroupSize) {
  const auto resnet = make_workload({"resnet50", "imagenet", "abci", "", 0});
  const auto cosmoflow = make_workload({"cosmoflow", "cosmoflow", "abci", "", 0});
  const auto set_p2 = [](Config& c, std::int64_t v) { c.p2 = v; };
  for (const auto& [w, kind, batch] :
       {std::tuple{&resnet, Kind::DataFilter, 1024}, std::tuple{&cosmoflow, Kind::DataSpatial, 64},
        std::tuple{&resnet, Kind::DataPipeline, 1024}}) {
    Config c = config(kind, 64, batch);
    const auto [best, p2] = best_of(*w, c, divisors(64, 2), set_p2);
    c.p2 = kSearched;
    const auto searched = predict(*w, c);
    SCOPED_TRACE(std::string(kind_name(kind)));
    expect_same(searched, best);
    EXPECT_EQ(searched.p2, p2);
  }
  // ResNet-50's data+filter: the smallest groups are the fastest (filter parallelism's
  // per-layer exchanges grow with the group) and the largest do not fit a 16 GB V100
  Config c = config(Kind::DataFilter, 64, 1024);
  c.p2 = kSearched;
  EXPECT_EQ(predict(resnet, c).p2, 2);
  c.p2 = 64;
  EXPECT_EQ(predict(resnet, c).status, Status::OutOfMemory);
}

// Micro-batches: every divisor of a replica's batch, 96 = 2^5 x 3 (not only powers of two).
TEST(SearchedShapes, AutoSegmentsIsTheBestOfEveryDivisorOfAReplicasBatch) {
  const auto w = make_workload({"resnet50", "imagenet", "dgx-a100", "", 0});
  const auto set_segments = [](Config& c, std::int64_t v) { c.segments = v; };
  Config pipeline = config(Kind::Pipeline, 8, 96);
  Config hybrid = config(Kind::DataPipeline, 64, 768);  // 8 replicas of 8 stages: 96 each
  hybrid.p2 = 8;
  for (Config c : {pipeline, hybrid}) {
    const auto [best, segments] = best_of(w, c, divisors(96, 1), set_segments);
    c.segments = kSearched;
    const auto searched = predict(w, c);
    SCOPED_TRACE(std::string(kind_name(c.kind)));
    expect_same(searched, best);
    EXPECT_EQ(searched.segments, segments);
    EXPECT_EQ(searched.p2, c.kind == Kind::DataPipeline ? 8 : 0);
  }
}

// Both searched: the best over every (stages, micro-batches) pair.
TEST(SearchedShapes, AutoP2AndSegmentsTogetherAreTheBestPair) {
  const auto w = make_workload({"resnet50", "imagenet", "dgx-a100", "", 0});
  Config c = config(Kind::DataPipeline, 16, 256);
  std::optional<Prediction> best;
  std::int64_t best_p2 = 0, best_segments = 0;
  for (const auto p2 : divisors(16, 2)) {
    for (const auto segments : divisors(256 / (16 / p2), 1)) {
      c.p2 = p2;
      c.segments = segments;
      const auto p = predict(w, c);
      if (!best || ranks_before(p, *best)) {
        best = p;
        best_p2 = p2;
        best_segments = segments;
      }
    }
  }
  c.p2 = c.segments = kSearched;
  const auto searched = predict(w, c);
  expect_same(searched, *best);
  EXPECT_EQ(searched.p2, best_p2);
  EXPECT_EQ(searched.segments, best_segments);
}

// Nothing to search: a strategy without groups keeps none (p2 0), a single GPU is a group
// of one, and a batch no replica count divides is the default's invalid configuration.
TEST(SearchedShapes, WhereNothingCanBeSearched) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  Config data = config(Kind::Data, 8, 256);
  data.p2 = data.segments = kSearched;
  const auto d = predict(w, data);
  EXPECT_EQ(d.status, Status::Ok);
  EXPECT_EQ(d.p2, 0);
  EXPECT_EQ(d.segments, 0);
  Config one = config(Kind::DataFilter, 1, 256);
  one.p2 = kSearched;
  EXPECT_EQ(predict(w, one).p2, 1);
  Config odd = config(Kind::DataPipeline, 8, 6);  // 4 replicas of 2 stages: 6 is not 4 x S
  odd.p2 = 2;
  odd.segments = kSearched;
  const auto o = predict(w, odd);
  EXPECT_EQ(o.status, Status::Invalid);
  EXPECT_NE(o.reason.find("not divisible by 4 replicas"), std::string::npos) << o.reason;
}

// A point invalid whatever its shape is not searched (10^18 GPUs' divisors are not walked:
// the system's limit is the reason); where every value tried is invalid none is chosen and
// the reason says so: ResNet-50's data+filter on 128 GPUs at batch 3, whose groups of 2 to
// 64 leave 64 to 2 groups that do not divide 3 and one group of 128 exceeds the 64 filters.
TEST(SearchedShapes, InvalidPointsChooseNothing) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  Config huge = config(Kind::DataFilter, 1'000'000'000'000'000'000, 256);
  huge.p2 = kSearched;
  const auto h = predict(w, huge);
  EXPECT_EQ(h.status, Status::Invalid);
  EXPECT_EQ(h.reason, "system 'abci' has 4352 GPUs");  // ParaDL's ABCI: 1,088 nodes x 4 V100s
  Config none = config(Kind::DataFilter, 128, 3);
  none.p2 = kSearched;
  const auto n = predict(w, none);
  EXPECT_EQ(n.status, Status::Invalid);
  EXPECT_EQ(n.p2, 0);
  EXPECT_EQ(n.reason,
            "every group size tried is invalid; at 2: batch 3 is not divisible by 64 groups");
}

// The text form of the counts: a whole number >= 1 or auto.
TEST(SearchedShapes, CountsReadAsNumbersOrAuto) {
  EXPECT_EQ(count_from_text("auto"), kSearched);
  EXPECT_EQ(count_from_text("16"), 16);
  EXPECT_EQ(count_from_text("0"), std::nullopt);
  EXPECT_EQ(count_from_text("-2"), std::nullopt);
  EXPECT_EQ(count_from_text("4x"), std::nullopt);
  EXPECT_EQ(count_from_text(""), std::nullopt);
  EXPECT_EQ(count_from_text("9999999999999999999"), std::nullopt);
  EXPECT_EQ(count_text(kSearched), "auto");
  EXPECT_EQ(count_text(8), "8");
}

}  // namespace
}  // namespace paradise::strategy
