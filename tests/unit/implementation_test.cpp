// Implementation profiles (docs/implementations.md): the file format, the built-ins, each
// transport path by hand, managed memory's paging and the calibration's recovery of known
// parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "paradise/implementation/catalog.hpp"
#include "paradise/strategy/input_pipeline.hpp"
#include "paradise/validate/fit.hpp"
#include "paradise_test_helpers.hpp"

namespace paradise::strategy {
namespace {

using implementation::Exchange;
using implementation::Transport;

implementation::Implementation parse(const std::string& text) {
  std::istringstream in(text);
  return implementation::parse_implementation_file(in, "t.impl");
}

// The error message of parsing `text` ("" when it parses).
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Every built-in written out reads back to itself.
TEST(Implementation, BuiltinsRoundTripThroughTheirFiles) {
  for (const auto& i : implementation::builtin_implementations()) {
    const auto back = parse(implementation::implementation_file_text(i));
    EXPECT_EQ(back.name, i.name);
    EXPECT_EQ(back.profile, i.profile) << i.name;
  }
  EXPECT_EQ(implementation::find_implementation("pytorch-nccl").profile,
            implementation::kPytorchNccl);
  // a fitted loading rank's rate, as calibrate writes it, reads back to the same double
  auto fitted = implementation::find_implementation("chainermnx");
  fitted.profile.loader_samples_per_s = 239.90341234;
  EXPECT_EQ(parse(implementation::implementation_file_text(fitted)).profile, fitted.profile);
}

// The managed_memory list's words are the strategies' names, in strategy::Kind's order.
TEST(Implementation, StrategyNamesFollowKindOrder) {
  for (const Kind k : all_kinds())
    EXPECT_EQ(implementation::kStrategyNames.at(static_cast<std::size_t>(k)), kind_name(k));
}

TEST(Implementation, BadFilesNameTheLineKeyAndValue) {
  const std::string head =
      "[implementation]\nname = x\nsplit_efficiency = 1\nstaging_GBps = 0\n"
      "managed_memory = none\ninput_broadcast = false\nstep_overhead_us = 0\n";
  std::string exchanges;
  for (const auto e : implementation::kExchangeNames)
    exchanges += "[exchange." + std::string(e) +
                 "]\ntransport = gpu-direct\noverhead_us = 0\noverlapped = false\n";
  EXPECT_EQ(parse_error(head + exchanges), "");
  EXPECT_NE(parse_error(head + exchanges + "[exchange.halo2]\n").find("t.impl:"),
            std::string::npos);
  auto bad = head + exchanges;
  bad.replace(bad.find("transport = gpu-direct"), 22, "transport = nvlink");
  EXPECT_NE(parse_error(bad).find("transport 'nvlink'"), std::string::npos) << parse_error(bad);
  bad = head + exchanges;
  bad.replace(bad.find("split_efficiency = 1"), 20, "split_efficiency = 0");
  EXPECT_NE(parse_error(bad).find("t.impl:3: split_efficiency '0'"), std::string::npos)
      << parse_error(bad);
  bad = head + exchanges;
  bad.replace(bad.find("managed_memory = none"), 21, "managed_memory = data tensor");
  EXPECT_NE(parse_error(bad).find("unknown strategy 'tensor'"), std::string::npos);
  // a gather cannot overlap: the layers after the split read it whole
  bad = head + exchanges;
  const auto at = bad.find("[exchange.gather]");
  bad.replace(bad.find("overlapped = false", at), 18, "overlapped = true");
  EXPECT_NE(parse_error(bad).find("cannot overlap"), std::string::npos);
  // the step overhead in microseconds, at most a second, and stated
  bad = head + exchanges;
  bad.replace(bad.find("step_overhead_us = 0"), 20, "step_overhead_us = 2e6");
  EXPECT_NE(parse_error(bad).find("t.impl:7: step_overhead_us '2e6': must be in [0, 1000000]"),
            std::string::npos)
      << parse_error(bad);
  bad = head + exchanges;
  bad.erase(bad.find("step_overhead_us = 0\n"), 21);
  EXPECT_NE(parse_error(bad).find("missing key 'step_overhead_us'"), std::string::npos)
      << parse_error(bad);
  // a loading rank's rate is optional (absent: it bounds nothing), non-negative when given
  EXPECT_EQ(parse(head + exchanges).profile.loader_samples_per_s, 0);
  bad = head + exchanges;
  bad.insert(bad.find("step_overhead_us"), "loader_samples_per_s = 330\n");
  EXPECT_EQ(parse(bad).profile.loader_samples_per_s, 330);
  bad.replace(bad.find("loader_samples_per_s = 330"), 26, "loader_samples_per_s = -1");
  EXPECT_NE(parse_error(bad).find("t.impl:7: loader_samples_per_s '-1': must be in [0, "),
            std::string::npos)
      << parse_error(bad);
  // every kind of exchange is stated
  EXPECT_NE(parse_error(head).find("exchange.gradient"), std::string::npos);
  EXPECT_THROW(implementation::find_implementation("horovod"), InputError);
}

// One convolution, filter-parallel: its forward allgather of y is the only exchange (the
// first layer's dL/dx is the data's), so the part is that one collective per iteration.
Workload one_conv() {
  return written_model("oneconv", "model oneconv\ninput 16x32x32\nc1 conv out=64 k=3 p=1\n",
                       "small:1024:16x32x32");
}

// ABCI's host link (docs/implementations.md §host-link): 12 GB/s per PCIe switch shared by
// its 2 GPUs, 10 us per copy.
double copy_s(double bytes) {
  return 10e-6 + bytes * 2 / 12e9;
}

// Within one node (4 GPUs): host-staged is a copy of its quarter out and of the whole in,
// plus the overhead; CUDA-aware MPI takes CUDA IPC, the NVLink ring NCCL's part has.
TEST(Implementation, TransportPathsByHandWithinANode) {
  const auto w = one_conv();
  const double B = 64, n = B * 64 * 32 * 32 * 4, iterations = 1024 / B;  // y of the batch
  auto c = paradise_config(Kind::Filter, 4, 64);
  const double direct = part_s(predict(w, c), "forward allgather of y");
  // NVLink ring allgather: 3 (9 us + n/4 / 50 GB/s) (ABCI's level, ParaDL's numbers)
  EXPECT_NEAR(direct, iterations * 3 * (9e-6 + n / 4 / 50e9), 1e-9 * direct);
  c.implementation.rule(Exchange::Layer) = {
      .transport = Transport::HostStaged, .overlapped = false, .overhead_s = 25e-6};
  const auto staged = predict(w, c);
  const double expected = iterations * (copy_s(n / 4) + copy_s(n) + 25e-6);
  EXPECT_NEAR(part_s(staged, "forward allgather of y"), expected, 1e-9 * expected);
  EXPECT_EQ(staged.communication.at(0).transport, "host-staged");
  EXPECT_NEAR(staged.communication.at(0).epoch_overhead_s, iterations * 25e-6, 1e-15);
  c.implementation.rule(Exchange::Layer) = {
      .transport = Transport::CudaAwareMpi, .overlapped = false, .overhead_s = 0};
  EXPECT_NEAR(part_s(predict(w, c), "forward allgather of y"), direct, 1e-12);
}

// Across two nodes (8 GPUs), the forward allgather of y (n bytes): GPU-direct is the ring on
// ABCI's leaf, 7 (40.31 us) + 7/8 n / 25 GB/s (two 12.5 GB/s adapters per node); host-staged
// adds the copies to it. CUDA-aware MPI runs MPI_Allgatherv as Open MPI chooses for 8 ranks
// and 16.8 MB, neighbour exchange in 4 steps, each a staged message that waits for the
// link's latency and a copy's start-up at each end (10 us); only the bytes of the copies and
// of the network pipeline, so the slower of them counts.
TEST(Implementation, TransportPathsByHandAcrossNodes) {
  const auto w = one_conv();
  const double B = 64, n = B * 64 * 32 * 32 * 4, iterations = 1024 / B;
  const double alpha = 40.31e-6, network_bytes = 7.0 / 8 * n / 25e9;
  const double network = 7 * alpha + network_bytes;
  auto c = paradise_config(Kind::Filter, 8, 64);
  EXPECT_NEAR(part_s(predict(w, c), "forward allgather of y"), iterations * network,
              1e-9 * iterations * network);
  const double copies = copy_s(n / 8) + copy_s(n);
  c.implementation.rule(Exchange::Layer) = {
      .transport = Transport::HostStaged, .overlapped = false, .overhead_s = 0};
  EXPECT_NEAR(part_s(predict(w, c), "forward allgather of y"), iterations * (copies + network),
              1e-9 * iterations * (copies + network));
  c.implementation.rule(Exchange::Layer) = {
      .transport = Transport::CudaAwareMpi, .overlapped = false, .overhead_s = 0};
  const double start_ups = 2 * 10e-6, steps = 4;
  ASSERT_GT(copies - start_ups, network_bytes);  // ABCI's PCIe is the slower here
  const double copies_bound = iterations * (steps * (alpha + start_ups) + copies - start_ups);
  const auto mpi = predict(w, c);
  EXPECT_NEAR(part_s(mpi, "forward allgather of y"), copies_bound, 1e-9 * copies_bound);
  EXPECT_EQ(mpi.communication.at(0).collective, "allgather/neighbour-exchange (MPI)");
  // staged at a rate beyond any link, the network's bytes are the slower
  c.implementation.staging_Bps = 1e15;
  const double network_bound = iterations * (steps * (alpha + start_ups) + network_bytes);
  EXPECT_NEAR(part_s(predict(w, c), "forward allgather of y"), network_bound, 1e-6 * network_bound);
}

// Open MPI's other choices, copies the slower (ABCI's PCIe): below 50,000 bytes
// MPI_Allgatherv is Bruck's, lg 8 = 3 steps; the partial sums of dL/dx go through
// MPI_Alltoallv, pairwise, 7 steps. Two small convolutions (input 8x4x4), 64 samples: the
// second's y is 64 x 8 x 16 x 4 B = 32,768 B, its dL/dx as large.
TEST(Implementation, OpenMpiStepsForSmallGathersAndPartialSums) {
  const auto w = written_model("twosmall",
                               "model twosmall\ninput 8x4x4\nc1 conv out=8 k=3 p=1\n"
                               "c2 conv out=8 k=3 p=1\n",
                               "tiny:1024:8x4x4");
  const double n = 64 * 8 * 16 * 4, iterations = 1024 / 64;
  const double alpha = 40.31e-6, start_ups = 2 * 10e-6;
  auto c = paradise_config(Kind::Filter, 8, 64);
  c.implementation.rule(Exchange::Layer) = {
      .transport = Transport::CudaAwareMpi, .overlapped = false, .overhead_s = 0};
  const auto r = predict(w, c);
  // two allgathers of y (c1, c2), one reduction of dL/dx (c2's input)
  const double gathers =
      2 * iterations * (3 * (alpha + start_ups) + copy_s(n / 8) + copy_s(n) - start_ups);
  EXPECT_NEAR(part_s(r, "forward allgather of y"), gathers, 1e-9 * gathers);
  // the copies are the slower (the network's bytes: GPU-direct's reduction less its latency)
  auto direct = c;
  direct.implementation.rule(Exchange::Layer).transport = Transport::GpuDirect;
  const double network_bytes =
      part_s(predict(w, direct), "backward reduction of dL/dx's partial sums") / iterations -
      7 * alpha;
  ASSERT_GT(copy_s(n) + copy_s(n / 8) - start_ups, network_bytes);
  const double sums =
      iterations * (7 * (alpha + start_ups) + copy_s(n) + copy_s(n / 8) - start_ups);
  EXPECT_NEAR(part_s(r, "backward reduction of dL/dx's partial sums"), sums, 1e-9 * sums);
  EXPECT_EQ(r.communication.at(1).collective, "alltoall/pairwise+sum (MPI)");
  // the 50,000-byte threshold reads the whole gathered: 131,072 B (8 x 8 x 8 x 4 B x 64) is
  // neighbour exchange's 4 steps though each GPU's share, 16,384 B, is under it
  const auto wide = written_model(
      "onesmall", "model onesmall\ninput 8x8x8\nc1 conv out=8 k=3 p=1\n", "tiny:1024:8x8x8");
  const double m = 64 * 8 * 64 * 4;
  const double gather =
      iterations * (4 * (alpha + start_ups) + copy_s(m / 8) + copy_s(m) - start_ups);
  EXPECT_NEAR(part_s(predict(wide, c), "forward allgather of y"), gather, 1e-9 * gather);
}

// The split-layer efficiency e divides the split layers' time alone: t(e) = U + S / e, so
// t(0.25) - t(0.5) = 2 (t(0.5) - t(1)) = 2 S, and the unsplit rest (the optimizer step's
// launches) U = t(1) - S stays; serial runs are untouched.
TEST(Implementation, SplitEfficiencyScalesSplitLayersOnly) {
  const auto w = one_conv();
  auto c = paradise_config(Kind::Filter, 4, 64);
  const auto at = [&](double e) {
    c.implementation.split_efficiency = e;
    return predict(w, c).epoch_compute_s;
  };
  const double split = at(0.5) - at(1);
  EXPECT_GT(split, 0);
  EXPECT_NEAR(at(0.25) - at(0.5), 2 * split, 1e-9 * split);
  EXPECT_GE(at(1) - split, 0);
  auto serial = paradise_config(Kind::Serial, 1, 64);
  const double alone = predict(w, serial).epoch_compute_s;
  serial.implementation.split_efficiency = 0.5;
  EXPECT_EQ(predict(w, serial).epoch_compute_s, alone);
}

// Managed memory: a configuration beyond the GPU runs, paging its excess out and back in
// each iteration at the host link's rate per GPU (12 GB/s shared by 2: 6 GB/s).
TEST(Implementation, ManagedMemoryPagesTheExcess) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  auto c = paradise_config(Kind::Spatial, 4, 1024);
  const auto oom = predict(w, c);
  ASSERT_EQ(oom.status, Status::OutOfMemory);
  c.implementation.managed_memory = 1U << static_cast<unsigned>(Kind::Spatial);
  const auto paged = predict(w, c);
  ASSERT_EQ(paged.status, Status::Ok) << paged.reason;
  const double excess = paged.memory_per_gpu_bytes - w.system.usable_memory_bytes();
  const double iterations = static_cast<double>(paged.iterations_per_epoch);
  EXPECT_NEAR(part_s(paged, "managed-memory paging of the excess"), iterations * 2 * excess / 6e9,
              1e-9 * iterations * 2 * excess / 6e9);
}

// One loading rank per group of GPUs that share samples (ChainerMN's multi-node iterator):
// at 320 samples/s, data+spatial's 8 groups of 4 on 32 GPUs load 2,048 / 8 = 256 samples
// each, 0.8 s, beyond the step, so the iteration takes 0.8 s and is marked input; data
// parallelism's 32 ranks load 64 each (0.2 s), filter's one rank all 64 (0.2 s).
TEST(Implementation, LoadingRankBoundsItsGroupsSamples) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  auto c = paradise_config(Kind::DataSpatial, 32, 2048);
  c.p2 = 4;
  c.implementation = implementation::find_implementation("chainermnx").profile;
  const auto fed = predict(w, c);
  ASSERT_EQ(fed.status, Status::Ok) << fed.reason;
  ASSERT_LT(fed.iteration_time_s, 0.8);
  EXPECT_NE(fed.limit, Limit::Input);
  c.implementation.loader_samples_per_s = 320;
  const auto starved = predict(w, c);
  EXPECT_EQ(starved.limit, Limit::Input);
  EXPECT_DOUBLE_EQ(starved.iteration_time_s, 256.0 / 320);
  const double iterations = static_cast<double>(starved.iterations_per_epoch);
  EXPECT_NEAR(starved.epoch_input_s, (0.8 - fed.iteration_time_s) * iterations,
              1e-9 * starved.epoch_time_s);
  auto data = c;
  data.kind = Kind::Data;
  EXPECT_DOUBLE_EQ(loader_iteration_s(w, data), 64.0 / 320);
  auto filter = c;
  filter.kind = Kind::Filter;
  filter.batch = 64;
  EXPECT_DOUBLE_EQ(loader_iteration_s(w, filter), 64.0 / 320);
  // ParaDL's model has no input pipeline
  c.variant = Variant::Paradl;
  EXPECT_EQ(predict(w, c).epoch_input_s, 0);
}

using Config = std::tuple<Kind, std::int64_t, std::int64_t, std::int64_t>;  // gpus, batch, p2

// ResNet-50 runs on ABCI whose measured time per iteration is `truth`'s projection.
std::vector<validate::MeasuredRun> synthetic_runs(const implementation::Implementation& truth,
                                                  const std::vector<Config>& configs) {
  std::vector<validate::MeasuredRun> runs;
  int line = 2;
  for (const auto& [kind, gpus, batch, p2] : configs) {
    validate::MeasuredRun r;
    r.file = "synthetic";
    r.line = line++;
    r.model = "resnet50";
    r.dataset = "imagenet";
    r.system = "abci";
    r.strategy = std::string(kind_name(kind));
    r.kind = kind;
    r.precision = "fp32";
    r.gpus = gpus;
    r.batch = batch;
    r.p2 = p2;
    r.iteration_s = 1;  // replaced below by the truth's projection
    runs.push_back(r);
  }
  validate::Options o;
  o.variant = Variant::Paradise;
  o.profile = &truth;
  const auto projected = validate::evaluate(runs, o);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_TRUE(projected[i].projected_s) << i;
    runs[i].iteration_s = projected[i].projected_s.value_or(1);
    runs[i].compute_s = projected[i].projected_compute_s;
  }
  return runs;
}

// Runs of every model-parallel strategy on 4 to 64 GPUs whose loading ranks, at the truth's
// 400 samples/s, load their share within the step (at most 128 samples, 0.32 s).
std::vector<Config> unbounded_configs() {
  return {{Kind::Filter, 8, 64, 0},         {Kind::Filter, 32, 64, 0},
          {Kind::Channel, 16, 64, 0},       {Kind::DataSpatial, 32, 1024, 4},
          {Kind::DataSpatial, 64, 2048, 4}, {Kind::DataFilter, 32, 512, 4},
          {Kind::DataFilter, 64, 1024, 4},  {Kind::Spatial, 4, 64, 0}};
}

implementation::Implementation known_truth() {
  auto truth = implementation::find_implementation("chainermnx");
  truth.profile.rule(Exchange::Layer).overhead_s = 400e-6;
  truth.profile.rule(Exchange::Halo).overhead_s = 2e-3;
  truth.profile.rule(Exchange::Gather).overhead_s = 2e-3;
  truth.profile.staging_Bps = 8e9;
  truth.profile.split_efficiency = 0.6;
  truth.profile.loader_samples_per_s = 400;
  return truth;
}

// calibrate --measured recovers the parameters that made synthetic runs: exactly from exact
// runs (the loading rank's 400 samples/s from the one row it bounds: 512 samples per group
// take 1.28 s, the step 0.98 s; the other rows' groups load at most 128 in 0.32 s, under
// their steps); from runs with +-5% noise on their times and compute parts, within 15% (the parts
// separate the split layers' efficiency from the per-call overheads, which both lengthen a
// model-parallel step: from the times alone the two trade off).
TEST(Implementation, CalibrationRecoversKnownParameters) {
  const auto truth = known_truth();
  auto configs = unbounded_configs();
  configs.push_back({Kind::DataSpatial, 16, 2048, 4});  // the row the truth's loader bounds
  auto runs = synthetic_runs(truth, configs);
  auto with_parts = runs;
  for (auto& r : runs) r.compute_s.reset();  // the times alone
  const auto base = implementation::find_implementation("chainermnx");
  const auto exact = validate::fit_implementation(runs, base, "fitted");
  const auto& p = exact.profile.profile;
  EXPECT_NEAR(p.rule(Exchange::Layer).overhead_s, 400e-6, 4e-6);
  EXPECT_NEAR(p.rule(Exchange::Halo).overhead_s, 2e-3, 2e-5);
  EXPECT_NEAR(p.staging_Bps, 8e9, 8e7);
  EXPECT_NEAR(p.split_efficiency, 0.6, 0.006);
  EXPECT_NEAR(p.loader_samples_per_s, 400, 4);
  EXPECT_EQ(exact.parameters.back().decided, validate::Decided::Fitted);
  EXPECT_GT(*exact.mean_accuracy, 0.999);
  // +-5% noise, alternating: the fit stays near the truth and the held-out rows near it
  for (std::size_t i = 0; i < runs.size(); ++i) {
    *with_parts[i].iteration_s *= i % 2 ? 1.05 : 0.95;
    *with_parts[i].compute_s *= i % 3 ? 0.95 : 1.05;
  }
  // without the row it bounds, nothing says how fast the loading rank is: the base's rate
  // (none) is kept, and said to be
  auto unbounded = runs;
  unbounded.pop_back();
  const auto kept = validate::fit_implementation(unbounded, base, "fitted");
  EXPECT_EQ(kept.profile.profile.loader_samples_per_s, 0);
  ASSERT_EQ(kept.parameters.back().name, std::string("input loader rate"));
  EXPECT_EQ(kept.parameters.back().decided, validate::Decided::Kept);
  const auto noisy = validate::fit_implementation(with_parts, base, "fitted");
  const auto& q = noisy.profile.profile;
  EXPECT_NEAR(q.rule(Exchange::Layer).overhead_s / 400e-6, 1, 0.15);
  EXPECT_NEAR(q.split_efficiency / 0.6, 1, 0.15);
  EXPECT_GT(*noisy.held_out_mean_accuracy, 0.85);
}

// A base rate of 100 samples/s bounds these rows, the truth's 400 none: the rows say only
// that the rate is above the least one at which no row waits for its loading rank, where
// the largest share of a batch takes exactly its row's step: the largest share / step (an
// iteration is the longer of the step and the loading rank's share at its rate; ABCI has no
// node input rates to be the slower). Shares by hand (docs/implementations.md#loader):
// filter, channel and spatial load the whole batch on one rank; a hybrid's replicas are
// gpus / p2. (The rows of the test above without the one the truth's rate bounds: fewer
// leave the fit free to explain the hybrids' steps by a loader instead of the spatial
// overhead.)
TEST(Implementation, CalibrationBoundsAnUnreachedLoaderFromBelow) {
  auto runs = synthetic_runs(known_truth(), unbounded_configs());
  for (auto& r : runs) r.compute_s.reset();  // the times alone, as in the test above
  // 5 samples/s (below the knob's bound) makes every row wait for the loader: the other
  // parameters must still be found, not hidden behind it
  for (const double base_rate : {100.0, 5.0}) {
    SCOPED_TRACE(base_rate);
    auto base = implementation::find_implementation("chainermnx");
    base.profile.loader_samples_per_s = base_rate;
    const auto fit = validate::fit_implementation(runs, base, "fitted");
    EXPECT_GT(*fit.mean_accuracy, 0.99);
    ASSERT_EQ(fit.parameters.back().name, std::string("input loader rate"));
    ASSERT_EQ(fit.parameters.back().decided, validate::Decided::AtLeast);
    auto lifted = fit.profile;
    lifted.profile.loader_samples_per_s = 0;
    validate::Options o;
    o.variant = Variant::Paradise;
    o.profile = &lifted;
    const auto steps = validate::evaluate(runs, o);
    const std::vector<double> shares{64,          64,        64,          1024.0 / 8,
                                     2048.0 / 16, 512.0 / 8, 1024.0 / 16, 64};
    ASSERT_EQ(steps.size(), shares.size());
    double least = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
      least = std::max(least, shares[i] / steps[i].projected_s.value());
    EXPECT_GT(least, 100);  // the base's rate does bound a row
    EXPECT_NEAR(fit.profile.profile.loader_samples_per_s / least, 1, 1e-5);
  }
}

}  // namespace
}  // namespace paradise::strategy
