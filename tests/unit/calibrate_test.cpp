// Collective measurements and the alpha-beta fit: tables synthesised in nccl-tests' and the
// OSU micro-benchmarks' documented layouts from known alpha and beta must give them back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "paradise/calibrate/fit.hpp"
#include "paradise/calibrate/measurements.hpp"
#include "paradise/calibrate/system_writer.hpp"
#include "paradise/core/error.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::calibrate {
namespace {

constexpr double kAlpha = 9.6e-6;          // 9.6 us, NCCL's NET latency (docs/cost-model.md §nccl)
constexpr double kBeta = 1 / 25e9;         // 25 GB/s
constexpr double kNvlinkBeta = 1 / 300e9;  // 300 GB/s

/// Time of n bytes by the form's formula (docs/cost-model.md §collectives), times (1 + noise).
double model_time(Form f, int p, double n, double alpha, double beta) {
  const auto [a, b] = coefficients(f, p, n);
  return a * alpha + b * beta;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// An all_reduce_perf / all_gather_perf / sendrecv_perf output as nccl-tests prints it
/// (README and doc/PERFORMANCE.md): banner, one '#  Rank' line per GPU, the two-level table
/// header, rows from 8 B to 1 GiB (x2), the footer. `digits` = the time's decimals (nccl-tests
/// prints 2; more for exact data); `noise` = relative amplitude of uniform noise.
std::string nccl_output(Form f, int p, double alpha, double beta, int digits, double noise = 0) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::ostringstream o;
  o << "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 "
       "iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n";
  for (int r = 0; r < p; ++r)
    o << "#  Rank " << r << " Group  0 Pid  1234 on node" << r / 8 << " device " << r % 8
      << " [0x07] NVIDIA A100-SXM4-80GB\n";
  o << "#\n"
       "#                                                              out-of-place              "
       "         in-place          \n"
       "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
       "time   algbw   busbw #wrong\n"
       "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            "
       "(us)  (GB/s)  (GB/s)       \n";
  // nccl-tests doc/PERFORMANCE.md: busbw = algbw x 2(p-1)/p, (p-1)/p or 1
  const double factor = f == Form::Allreduce      ? 2.0 * (p - 1) / p
                        : f == Form::PointToPoint ? 1.0
                                                  : (p - 1.0) / p;
  const char* op = f == Form::Allreduce || f == Form::PointToPoint ? "sum" : "none";
  double total_busbw = 0;
  int rows = 0;
  for (double n = 8; n <= 1073741824; n *= 2) {
    const double t = model_time(f, p, n, alpha, beta) * (1 + noise * u(rng));
    const double algbw = n / t / 1e9;
    const std::string time_us = fmt(("%." + std::to_string(digits) + "f").c_str(), t * 1e6);
    o << fmt("%12.0f", n) << fmt("%14.0f", n / 4) << "     float"
      << "  " << op << "      -1  " << time_us << fmt("%8.2f", algbw)
      << fmt("%8.2f", algbw * factor) << "      0  " << time_us << fmt("%8.2f", algbw)
      << fmt("%8.2f", algbw * factor) << "      0\n";
    total_busbw += algbw * factor;
    ++rows;
  }
  o << "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : " << total_busbw / rows
    << " \n#\n\n";
  return o.str();
}

Measurement parse_nccl(const std::string& text, const std::string& name, std::int64_t p = 0) {
  std::istringstream in(text);
  return parse_nccl_tests(in, name, p);
}

TEST(NcclTests, ExactAllreduceTableGivesAlphaAndBetaBack) {
  const auto m =
      parse_nccl(nccl_output(Form::Allreduce, 16, kAlpha, kBeta, 9), "all_reduce_perf.16gpus.out");
  EXPECT_EQ(m.form, Form::Allreduce);
  EXPECT_EQ(m.ranks, 16);                 // the '#  Rank' lines
  EXPECT_EQ(m.samples.size(), 28u);       // 8 B .. 1 GiB
  EXPECT_EQ(m.samples.front().line, 24);  // 3 banner lines, 16 ranks, 4 header lines, then rows
  const Fit f = fit_alpha_beta(m);
  EXPECT_NEAR(f.alpha_s, kAlpha, 1e-6 * kAlpha);
  EXPECT_NEAR(f.beta_s_per_byte, kBeta, 1e-6 * kBeta);
  EXPECT_LT(f.max_relative, 1e-6);
  EXPECT_FALSE(f.alpha_clamped || f.beta_clamped);
}

TEST(NcclTests, AllgatherAndReduceScatterUseTheWholeArray) {
  for (Form form : {Form::Allgather, Form::ReduceScatter}) {
    const std::string name =
        form == Form::Allgather ? "all_gather_perf.txt" : "reduce_scatter_perf.txt";
    const auto m = parse_nccl(nccl_output(form, 8, 3.4e-6, kNvlinkBeta, 9), name);
    EXPECT_EQ(m.form, form);
    const Fit f = fit_alpha_beta(m);
    EXPECT_NEAR(f.alpha_s, 3.4e-6, 1e-6 * 3.4e-6) << name;
    EXPECT_NEAR(f.beta_s_per_byte, kNvlinkBeta, 1e-6 * kNvlinkBeta) << name;
  }
}

TEST(NcclTests, CollectiveIsInferredFromBusOverAlgorithmBandwidth) {
  // no collective in the file name: busbw / algbw = 2(p-1)/p = 1.75 on 8 GPUs -> allreduce
  auto m = parse_nccl(nccl_output(Form::Allreduce, 8, kAlpha, kBeta, 2), "run1.log");
  EXPECT_EQ(m.form, Form::Allreduce);
  // (p-1)/p = 0.875 -> allgather's form (reduce-scatter's is the same)
  m = parse_nccl(nccl_output(Form::Allgather, 8, kAlpha, kBeta, 2), "run2.log");
  EXPECT_EQ(m.form, Form::Allgather);
  // 1 on 2 GPUs: allreduce or sendrecv, cannot tell
  EXPECT_THROW(parse_nccl(nccl_output(Form::PointToPoint, 2, kAlpha, kBeta, 2), "run3.log"),
               InputError);
  m = parse_nccl(nccl_output(Form::PointToPoint, 2, kAlpha, kBeta, 9), "sendrecv_perf.log");
  EXPECT_EQ(m.form, Form::PointToPoint);
  const Fit f = fit_alpha_beta(m);
  EXPECT_NEAR(f.alpha_s, kAlpha, 1e-6 * kAlpha);
  EXPECT_NEAR(f.beta_s_per_byte, kBeta, 1e-6 * kBeta);
}

TEST(NcclTests, TwoPercentNoiseAndPrintedRoundingStillFitClosely) {
  const auto m =
      parse_nccl(nccl_output(Form::Allreduce, 64, kAlpha, kBeta, 2, 0.02), "all_reduce_perf.txt");
  const Fit f = fit_alpha_beta(m);
  // relative least squares over 28 sizes: errors of about 2% / sqrt(14) per parameter
  EXPECT_NEAR(f.alpha_s, kAlpha, 0.05 * kAlpha);
  EXPECT_NEAR(f.beta_s_per_byte, kBeta, 0.05 * kBeta);
  EXPECT_LT(f.rms_relative, 0.02);  // uniform +-2%: rms 2% / sqrt(3)
  EXPECT_LT(f.max_relative, 0.04);
  EXPECT_EQ(f.residuals.size(), 28u);
}

TEST(NcclTests, ErrorsNameFileAndLine) {
  std::string text = nccl_output(Form::Allreduce, 4, kAlpha, kBeta, 2);
  const auto pos = text.find("\n" + fmt("%12.0f", 64) + " ");
  ASSERT_NE(pos, std::string::npos);
  text.replace(text.find("-1", pos), 2, "-1 x");  // an extra field shifts the time column
  try {
    parse_nccl(text, "all_reduce_perf.out");
    FAIL() << "no error";
  } catch (const InputError& e) {
    // the 64 B row: 3 banner lines, 4 ranks, 4 header lines, 8 16 32 64 -> line 15
    EXPECT_NE(std::string(e.what()).find("all_reduce_perf.out:15"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_nccl("# nothing here\n", "empty.out"), InputError);
}

/// osu_latency / osu_bw / osu_allreduce as the OSU micro-benchmarks print them (v7).
std::string osu_output(const std::string& title, const std::string& header, Form f, int p,
                       bool bandwidth, bool full = false) {
  std::ostringstream o;
  o << "# OSU MPI" << title << " Test v7.1\n# Datatype: MPI_CHAR.\n" << header << '\n';
  for (double n = (bandwidth ? 1 : 0); n <= 4194304; n = n == 0 ? 1 : 2 * n) {
    // osu_allgather's size is each rank's part of the array
    const double whole = f == Form::Allgather ? n * p : n;
    const double t = model_time(f, p, whole, kAlpha, kBeta);
    o << fmt("%-10.0f", n);
    if (bandwidth) {
      o << fmt("%20.9f", n / t / 1e6);  // MB/s, MB = 1e6 B
    } else {
      o << fmt("%20.9f", t * 1e6);  // us
      if (full) o << fmt("%18.2f", t * 0.9e6) << fmt("%18.2f", t * 1.1e6) << "        1000";
    }
    o << '\n';
  }
  return o.str();
}

TEST(Osu, LatencyBandwidthAndCollectivesGiveAlphaAndBetaBack) {
  std::istringstream lat(
      osu_output(" Latency", "# Size          Latency (us)", Form::PointToPoint, 2, false));
  Fit f = fit_alpha_beta(parse_osu(lat, "osu_latency.out"));
  EXPECT_NEAR(f.alpha_s, kAlpha, 1e-6 * kAlpha);
  EXPECT_NEAR(f.beta_s_per_byte, kBeta, 1e-6 * kBeta);
  std::istringstream bw(
      osu_output(" Bandwidth", "# Size      Bandwidth (MB/s)", Form::PointToPoint, 2, true));
  f = fit_alpha_beta(parse_osu(bw, "osu_bw.out"));
  EXPECT_NEAR(f.beta_s_per_byte, kBeta, 1e-6 * kBeta);
  for (Form form : {Form::Allreduce, Form::Allgather}) {
    const std::string title = form == Form::Allreduce ? " Allreduce Latency" : " Allgather Latency";
    const std::string header =
        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations";
    std::istringstream in(osu_output(title, header, form, 32, false, true));
    const Measurement m = parse_osu(in, "osu.out", 32);
    EXPECT_EQ(m.form, form);
    f = fit_alpha_beta(m);
    EXPECT_NEAR(f.alpha_s, kAlpha, 1e-6 * kAlpha) << title;
    EXPECT_NEAR(f.beta_s_per_byte, kBeta, 1e-6 * kBeta) << title;
  }
}

TEST(Osu, CollectiveWithoutARankCountIsAnErrorNamingTheFile) {
  std::istringstream in(
      osu_output(" Allreduce Latency", "# Size       Avg Latency(us)", Form::Allreduce, 8, false));
  try {
    parse_osu(in, "osu_allreduce.out");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("osu_allreduce.out"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("GPUS"), std::string::npos) << e.what();
  }
  // osu_latency and osu_bw time 2 ranks (OSU's documentation): another count is not ignored
  std::istringstream pair(
      osu_output(" Latency", "# Size          Latency (us)", Form::PointToPoint, 2, false));
  try {
    parse_osu(pair, "osu_latency.out", 64);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("osu_latency.out: GPUS '64'"), std::string::npos)
        << e.what();
  }
  std::istringstream bad(
      "# OSU MPI Latency Test v7.1\n# Size          Latency (us)\n0  0.5\n1 x\n");
  try {
    parse_osu(bad, "lat.out");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("lat.out:4"), std::string::npos) << e.what();
  }
}

TEST(SystemWriter, WrittenFileReadsBackAsTheSameSystem) {
  system::System s = system::find_system("abci");
  s.gpu.gemm_efficiency_max = 0.123456789;  // a fitted curve survives the round trip
  s.gpu.gemm_half_dim = 77.25;
  s.gpu.grouped_attainment[0][2] = 0.125;  // a depthwise convolution's, in mixed precision
  s.levels[1].node_bandwidth = true;       // a level calibrated by a collective across nodes
  std::ostringstream out;
  write_system_file(out, s, "calibrated\nby a test");
  std::istringstream in(out.str());
  const system::System r = system::parse_system_file(in, "abci.system");
  EXPECT_EQ(r.name, s.name);
  EXPECT_EQ(r.gpus_per_node, s.gpus_per_node);
  EXPECT_EQ(r.max_gpus, s.max_gpus);
  EXPECT_EQ(r.nics_per_node, s.nics_per_node);  // ABCI: 2 adapters for 4 GPUs
  EXPECT_NEAR(r.gpu.memory_bytes, s.gpu.memory_bytes, 1e-12 * s.gpu.memory_bytes);
  EXPECT_NEAR(r.gpu.peak_fp32_flops, s.gpu.peak_fp32_flops, 1e-12 * s.gpu.peak_fp32_flops);
  EXPECT_NEAR(r.memory_margin_fraction, s.memory_margin_fraction, 1e-15);
  EXPECT_DOUBLE_EQ(r.gpu.gemm_efficiency_max, s.gpu.gemm_efficiency_max);
  EXPECT_DOUBLE_EQ(r.gpu.gemm_half_dim, s.gpu.gemm_half_dim);
  EXPECT_EQ(r.gpu.grouped_attainment, s.gpu.grouped_attainment);
  ASSERT_EQ(r.levels.size(), s.levels.size());
  ASSERT_EQ(r.host_staged_levels.size(), s.host_staged_levels.size());
  for (std::size_t i = 0; i < s.levels.size(); ++i) {
    EXPECT_EQ(r.levels[i].name, s.levels[i].name);
    EXPECT_EQ(r.levels[i].span_gpus, s.levels[i].span_gpus);
    EXPECT_NEAR(r.levels[i].latency_s, s.levels[i].latency_s, 1e-12 * s.levels[i].latency_s);
    EXPECT_NEAR(r.levels[i].bandwidth_Bps, s.levels[i].bandwidth_Bps,
                1e-12 * s.levels[i].bandwidth_Bps);
    EXPECT_EQ(r.levels[i].oversubscription, s.levels[i].oversubscription);
    EXPECT_EQ(r.levels[i].node_bandwidth, i == 1) << i;
  }
}

// Issue 35: a table that stops at 128 B gave 203 GB/s at "rms 0.00%" (any beta fits where the
// latency dominates); the fit is refused below a 1 MiB largest message (Hockney: n beta >> alpha).
TEST(AlphaBetaFit, SmallMessagesOnlyAreRefused) {
  Measurement m;
  m.file = "truncated.out";
  m.form = Form::Allreduce;
  m.ranks = 8;
  int line = 30;
  for (double n = 8; n <= 128; n *= 2)
    m.samples.push_back({n, model_time(Form::Allreduce, 8, n, kAlpha, kBeta), line++});
  try {
    fit_alpha_beta(m);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated.out: size '128'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("below 1048576 bytes"), std::string::npos) << e.what();
  }
  // the same table up to 1 MiB fits alpha and beta back
  for (double n = 256; n <= 1048576; n *= 2)
    m.samples.push_back({n, model_time(Form::Allreduce, 8, n, kAlpha, kBeta), line++});
  EXPECT_NEAR(fit_alpha_beta(m).beta_s_per_byte, kBeta, 1e-6 * kBeta);
}

// Issue 35: OSU output listing every size twice fitted at 31.6% rms without a word.
TEST(AlphaBetaFit, ASizeListedTwiceIsRefusedWithBothLines) {
  Measurement m;
  m.file = "osu_twice.out";
  m.form = Form::PointToPoint;
  m.ranks = 2;
  int line = 4;
  for (int run = 0; run < 2; ++run)
    for (double n = 1; n <= 4194304; n *= 2)
      m.samples.push_back({n, model_time(Form::PointToPoint, 2, n, kAlpha, kBeta), line++});
  try {
    fit_alpha_beta(m);
    FAIL() << "no error";
  } catch (const InputError& e) {
    // 23 sizes 1 B .. 4 MiB from line 4: size 1 again on line 27
    EXPECT_NE(
        std::string(e.what()).find("osu_twice.out:27: size '1': listed twice (lines 4 and 27)"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace paradise::calibrate
