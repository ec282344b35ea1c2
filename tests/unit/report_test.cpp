// The commands' reports: split and training fields, memlimit's limits and reasons, predict's
// CSV, against values derived by hand.
#include <gtest/gtest.h>

#include <sstream>

#include "paradise/report/fields.hpp"
#include "paradise/report/memlimit.hpp"
#include "paradise/report/predict.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::report {
namespace {

TEST(SplitPartsText, NamesTheDimensionsCutInTwoOrMore) {
  EXPECT_EQ(split_parts_text({4, 1, 1}, 2), "4 parts along W");
  EXPECT_EQ(split_parts_text({2, 2, 1}, 3), "2 x 2 parts along W x H");
  EXPECT_EQ(split_parts_text({1, 1, 1}, 3), "1 part");
}

TEST(TrainingJson, TheParadlVariantHasOnlyAPrecision) {
  std::ostringstream out;
  JsonWriter j(out);
  strategy::Config c;
  c.variant = strategy::Variant::Paradl;
  j.begin_object();
  write_training_json(j, c);
  j.end_object();
  EXPECT_EQ(out.str(), R"({"precision":"fp32"})");
}

MemlimitQuery data_on_8(std::int64_t max_batch) {
  MemlimitQuery q;
  q.spec = {"vgg16", "imagenet", "abci", "", 0};
  q.strategy_text = "data";
  q.c.kind = strategy::Kind::Data;
  q.c.gpus = 8;
  q.c.batch = 64;
  q.max_batch = max_batch;
  return q;
}

TEST(Memlimits, NoBatchBelowTheGpuCountSaysWhy) {
  // data parallel splits the batch evenly over 8 GPUs: a multiple of 8, none of them <= 3,
  // so the search predicts nothing
  const auto q = data_on_8(3);
  const auto w = strategy::make_workload(q.spec);
  const auto m = find_memlimits(q, w, sweep::ResolutionFamily{q.spec});
  EXPECT_EQ(m.batch.limit.value, 0);
  EXPECT_EQ(m.batch.limit.evaluations, 0);
  EXPECT_EQ(m.batch.why_none,
            "no batch up to --max-batch 3 that the strategy divides evenly (multiples of 8)");
  std::ostringstream out;
  print_memlimits_table(out, q, m);
  EXPECT_NE(out.str().find("largest feasible global batch: none (no batch up to --max-batch 3"),
            std::string::npos);
}

TEST(Memlimits, ABatchAtTheTopOfTheSearchIsALowerBound) {
  // 96 on 8 GPUs is 12 samples per GPU, under 1 GB of VGG-16's activations (73.3 MB per
  // sample, `paradise models`) besides 138 M parameters: it fits, and the next multiple of
  // 8, 104, lies past --max-batch 100
  const auto q = data_on_8(100);
  const auto w = strategy::make_workload(q.spec);
  const auto m = find_memlimits(q, w, sweep::ResolutionFamily{q.spec});
  EXPECT_EQ(m.batch.limit.value, 96);
  EXPECT_TRUE(m.batch.at_search_end);
  auto c = q.c;
  c.batch = 96;
  EXPECT_EQ(strategy::predict(w, c).status, strategy::Status::Ok);
  EXPECT_FALSE(m.side);
  EXPECT_TRUE(m.at_sides.empty());
}

TEST(PredictionCsv, OneHeaderAndOneRowOfTheSameWidth) {
  const auto w = strategy::make_workload({"resnet50", "imagenet", "abci", "", 0});
  strategy::Config c;  // ParaDL's variant: no optimizer, ZeRO stage or recomputation
  c.kind = strategy::Kind::Data;
  c.gpus = 4;
  c.batch = 128;
  std::ostringstream out;
  print_prediction_csv(out, strategy::predict(w, c), c, w, std::nullopt);
  std::istringstream lines(out.str());
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_TRUE(
      header.starts_with("strategy,gpus,batch,input,variant,implementation,precision,optimizer,"));
  EXPECT_TRUE(row.starts_with("data,4,128,3x224x224,paradl,,fp32,,,,ok,"));
  // fields: commas outside double quotes, plus one
  const auto fields = [](const std::string& line) {
    bool quoted = false;
    std::size_t n = 1;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) ++n;
    }
    return n;
  };
  EXPECT_EQ(fields(header), fields(row));
}

}  // namespace
}  // namespace paradise::report
