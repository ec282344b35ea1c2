// paradise validate's pieces: the CSV reader, ParaDL's accuracy metric, Kendall's tau-a and
// the cause of an anomaly, against values worked out by hand.
#include "paradise/validate/validate.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"

namespace paradise::validate {
namespace {

TEST(CsvReader, SkipsCommentsAndBlankLinesAndUnquotesFields) {
  std::istringstream in("# a comment\n\na,b , c\n1,\"x, \"\"y\"\"\",3\r\n# more\n4,5,6\n");
  const CsvTable t = read_csv(in, "t.csv");
  EXPECT_EQ(t.header_line, 3);
  EXPECT_EQ(t.header, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].line, 4);
  EXPECT_EQ(t.rows[0].cells[1], "x, \"y\"");
  EXPECT_EQ(t.rows[1].line, 6);
  EXPECT_EQ(*t.column("c"), 2u);
  EXPECT_FALSE(t.column("d"));
}

TEST(CsvReader, RowWithTheWrongFieldCountNamesFileAndLine) {
  std::istringstream in("a,b\n1,2\n1,2,3\n");
  try {
    read_csv(in, "runs.csv");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("runs.csv:3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("3 fields"), std::string::npos) << e.what();
  }
  std::istringstream quote("a,b\n\"1,2\n");
  EXPECT_THROW(read_csv(quote, "q.csv"), InputError);
  std::istringstream repeated("a,a\n");
  EXPECT_THROW(read_csv(repeated, "r.csv"), InputError);
}

TEST(Accuracy, IsOneMinusTheRelativeError) {
  EXPECT_DOUBLE_EQ(accuracy(90, 100), 0.9);   // 1 - 10/100
  EXPECT_DOUBLE_EQ(accuracy(110, 100), 0.9);  // symmetric in the sign of the error
  EXPECT_DOUBLE_EQ(accuracy(100, 50), 0.0);   // twice the measurement: 1 - 50/50
}

TEST(Concordance, CountsPairsByHand) {
  // one adjacent swap in four: of the 6 pairs only (2,3) is discordant
  const auto g = concordance({1, 2, 3, 4}, {1, 3, 2, 4});
  EXPECT_EQ(g.pairs, 6);
  EXPECT_EQ(g.concordant, 5);
  EXPECT_EQ(g.discordant, 1);
  EXPECT_DOUBLE_EQ(*g.kendall_tau, 4.0 / 6.0);
  // reversed order: tau = -1
  EXPECT_DOUBLE_EQ(*concordance({1, 2, 3}, {3, 2, 1}).kendall_tau, -1.0);
  // a tie in the projection counts in the pairs (tau-a) but as neither
  const auto t = concordance({1, 2, 3}, {1, 1, 3});
  EXPECT_EQ(t.tied, 1);
  EXPECT_DOUBLE_EQ(*t.kendall_tau, 2.0 / 3.0);
  // pairs of the same label (strategy) are skipped: only a-b pairs, 2 x 1
  const auto l = concordance({1, 2, 3}, {3, 2, 1}, {"a", "a", "b"});
  EXPECT_EQ(l.pairs, 2);
  EXPECT_EQ(l.discordant, 2);
  EXPECT_FALSE(concordance({1}, {1}).kendall_tau);
}

TEST(Diagnose, NamesThePartThatDivergesMost) {
  MeasuredRun run;
  run.compute_s = 1.1;        // 10% above the projection: |1.1 - 1| / 1.1 = 0.09
  run.communication_s = 0.5;  // 5x: |0.5 - 0.1| / 0.5 = 0.8
  RowResult row;
  row.basis = "iteration";
  row.projected_s = 1.1;
  row.measured_s = 1.6;
  row.projected_compute_s = 1.0;
  row.projected_communication_s = 0.1;
  row.projected_memory_bytes = 1e9;
  const Anomaly a = diagnose(run, row);
  EXPECT_EQ(a.part, "communication");
  EXPECT_NE(a.cause.find("5.00x the projection"), std::string::npos) << a.cause;
  EXPECT_NE(a.hint.find("congestion"), std::string::npos) << a.hint;
  // memory twice the projection diverges more (0.5) than compute (0.09)
  run.communication_s.reset();
  run.memory_bytes = 2e9;
  EXPECT_EQ(diagnose(run, row).part, "memory");
  // no parts measured: the projection's larger part, compute (1.0 of 1.1 s)
  run = MeasuredRun{};
  const Anomaly d = diagnose(run, row);
  EXPECT_EQ(d.part, "compute");
  EXPECT_NE(d.cause.find("90.9%"), std::string::npos) << d.cause;  // 1.0 / 1.1
  // communication faster than projected: only ParaDL's variant is told to try the other
  run.communication_s = 0.02;
  EXPECT_NE(diagnose(run, row, strategy::Variant::Paradl).hint.find("try --variant paradise"),
            std::string::npos);
  const Anomaly p = diagnose(run, row, strategy::Variant::Paradise);
  EXPECT_EQ(p.part, "communication");
  EXPECT_EQ(p.hint.find("--variant"), std::string::npos) << p.hint;
}

// A row per iteration measured at `measured_s`, projected as the sum of its parts.
RowResult projected_parts(double measured_s, double compute_s, double communication_s,
                          double step_overhead_s, double input_wait_s) {
  RowResult row;
  row.basis = "iteration";
  row.projected_s = compute_s + communication_s + step_overhead_s + input_wait_s;
  row.measured_s = measured_s;
  row.projected_compute_s = compute_s;
  row.projected_communication_s = communication_s;
  row.projected_step_overhead_s = step_overhead_s;
  row.projected_input_wait_s = input_wait_s;
  return row;
}

// No parts measured and the framework's time per step the largest projected part (by hand:
// 6 of 1 + 0.5 + 6 = 7.5 ms, 80%): it is named, with how to measure it.
TEST(Diagnose, NamesTheFrameworkWhereItIsTheLargestPart) {
  const RowResult row = projected_parts(15e-3, 1e-3, 0.5e-3, 6e-3, 0);
  const Anomaly a = diagnose(MeasuredRun{}, row);
  EXPECT_EQ(a.part, "framework");
  EXPECT_NE(a.cause.find("80.0%"), std::string::npos) << a.cause;
  EXPECT_NE(a.hint.find("step_overhead_us"), std::string::npos) << a.hint;
  EXPECT_NE(a.hint.find("slower training loop"), std::string::npos) << a.hint;
}

// No parts measured and the wait for input the largest projected part (by hand: a loading
// rank's 0.8 s against a 0.3 s step, so 0.5 of 0.2 + 0.05 + 0.05 + 0.5 = 0.8 s, 62.5%): it is
// named, with the loader's rate to measure.
TEST(Diagnose, NamesTheInputWhereItsWaitIsTheLargestPart) {
  const RowResult row = projected_parts(1.2, 0.2, 0.05, 0.05, 0.5);
  const Anomaly a = diagnose(MeasuredRun{}, row);
  EXPECT_EQ(a.part, "input");
  EXPECT_NE(a.cause.find("62.5%"), std::string::npos) << a.cause;
  EXPECT_NE(a.hint.find("loader_samples_per_s"), std::string::npos) << a.hint;
}

}  // namespace
}  // namespace paradise::validate
