// Strategy formulas on small synthetic workloads, with expected values derived by hand
// from ParaDL's Table III (docs/cost-model.md §paradl-per-epoch) and GPipe's bubble (Huang et al.
// 2019 §2.3).
#include <gtest/gtest.h>

#include <cmath>

#include "paradise/model/graph.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::strategy {
namespace {

// Eight equal 3x3 convolutions of 16 channels on 16x8x8, 1 ms per sample each.
Workload uniform_workload() {
  model::Graph g("uniform", 2);
  int x = g.input();
  for (int i = 0; i < 8; ++i) x = g.conv(x, "c" + std::to_string(i), 16, 3, 1, 1);
  Workload w;
  w.model = model::analyze(g, model::Shape::image(16, 8, 8));
  for (const auto& l : w.model.layers)
    w.layer_time_s.push_back(l.op == model::Op::Input ? 0.0 : 1e-3);
  w.active = default_active_layers(w.model);
  w.dataset_samples = 1000;
  w.system = system::abci();
  return w;
}

Config config(Kind k, std::int64_t p, std::int64_t b) {
  Config c;
  c.kind = k;
  c.gpus = p;
  c.batch = b;
  return c;
}

TEST(Serial, ComputeIsDatasetTimesTimePerSample) {
  const auto p = predict(uniform_workload(), config(Kind::Serial, 1, 10));
  EXPECT_EQ(p.status, Status::Ok);
  EXPECT_NEAR(p.epoch_compute_s, 1000 * 8e-3, 1e-9);  // D * sum t
  EXPECT_EQ(p.epoch_communication_s, 0.0);
  // 2 delta (B sum(|x|+|y|) + sum|w|): 8 layers of 1024 in + 1024 out, 8 * 2304 weights
  EXPECT_NEAR(p.memory_per_gpu_bytes, 2 * 4 * (10.0 * 8 * 2048 + 8 * 2304), 1e-6);
  EXPECT_EQ(p.iterations_per_epoch, 100);
}

TEST(Serial, MoreThanOneGpuIsInvalid) {
  EXPECT_EQ(predict(uniform_workload(), config(Kind::Serial, 2, 10)).status, Status::Invalid);
}

TEST(Data, ComputeSplitsAndGradientsAreAllreduced) {
  const auto p = predict(uniform_workload(), config(Kind::Data, 2, 10));
  EXPECT_NEAR(p.epoch_compute_s, 1000 * 8e-3 / 2, 1e-9);
  // 100 iterations x ring allreduce on NVLink: 2*1*(9 us + (18,432 weights * 4 B / 2) / 50 GB/s)
  EXPECT_NEAR(p.epoch_communication_s, 100 * 2 * (9e-6 + 18432 * 4 / 2 / 50e9), 1e-12);
  ASSERT_EQ(p.communication.size(), 1u);
  EXPECT_EQ(p.communication[0].phase, "GE");
}

// The iteration time is one iteration of the whole batch, not the epoch's mean: D = 1000 at
// B = 300 is 3 whole batches and one of 100; each GPU's 150 samples take 150 x 8 ms, and every
// iteration pays the ring allreduce of Data.ComputeSplitsAndGradientsAreAllreduced
TEST(Data, IterationTimeIsAWholeBatchWhenTheLastIsPartial) {
  const auto p = predict(uniform_workload(), config(Kind::Data, 2, 300));
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  EXPECT_EQ(p.iterations_per_epoch, 4);
  EXPECT_NEAR(p.epoch_compute_s, 500 * 8e-3, 1e-9);  // ParaDL: ceil(D/p) samples per GPU
  const double allreduce = 2 * (9e-6 + 18432 * 4 / 2 / 50e9);
  EXPECT_NEAR(p.iteration_time_s, 150 * 8e-3 + allreduce, 1e-12);  // (the mean is 1 s + it)
  EXPECT_NEAR(p.epoch_time_s, 500 * 8e-3 + 4 * allreduce, 1e-12);
}

TEST(Data, BatchNotDivisibleIsInvalidWithReason) {
  const auto p = predict(uniform_workload(), config(Kind::Data, 4, 10));
  EXPECT_EQ(p.status, Status::Invalid);
  EXPECT_NE(p.reason.find("not divisible"), std::string::npos);
}

TEST(Filter, MoreGpusThanFiltersIsInvalid) {
  const auto p = predict(uniform_workload(), config(Kind::Filter, 32, 10));
  EXPECT_EQ(p.status, Status::Invalid);
  EXPECT_NE(p.reason.find("smallest filter count 16"), std::string::npos) << p.reason;
}

TEST(Filter, ParadlDividesWeightsTwiceUnlessFixed) {
  Config c = config(Kind::Filter, 4, 10);
  const auto quirk = predict(uniform_workload(), c);
  c.paradl.fix_bugs = true;
  const auto fixed = predict(uniform_workload(), c);
  // all 18,432 weights are in parallel layers: 2*4*18432/4 fixed, /16 as ParaDL's code
  EXPECT_NEAR(fixed.memory_per_gpu_bytes - quirk.memory_per_gpu_bytes,
              8 * 18432.0 * (1.0 / 4 - 1.0 / 16), 1e-6);
}

TEST(Pipeline, GpipeBubbleOfFourStagesAndSixteenMicroBatches) {
  Config c = config(Kind::Pipeline, 4, 16);
  c.segments = 16;
  const auto p = predict(uniform_workload(), c);
  EXPECT_EQ(p.status, Status::Ok);
  // each stage holds 2 of the 8 layers: D (p+S-1)/S * 2 ms = 1000 * 19/16 * 2e-3;
  // the bubble is (K-1)/(M+K-1) = 3/19 of the time (GPipe §2.3)
  EXPECT_NEAR(p.epoch_compute_s, 1000 * 19.0 / 16 * 2e-3, 1e-9);
  const double ideal = 1000 * 8e-3 / 4;
  EXPECT_NEAR(1 - ideal / p.epoch_compute_s, 3.0 / 19, 1e-9);
  // 2 (D (p+S-2)/B) (a + (B/S) |y| delta b): NVLink for 4 GPUs, |y| = 1024
  EXPECT_NEAR(p.epoch_communication_s, 2 * (1000.0 * 18 / 16) * (9e-6 + 1.0 * 1024 * 4 / 50e9),
              1e-9);
  // memory of the largest stage, all 16 micro-batches kept (GPipe without recompute):
  // 2 delta * 2 layers * (B (|x| + |y|) + |w|) = 8 * 2 * (16 * 2048 + 2304)
  EXPECT_NEAR(p.memory_per_gpu_bytes, 8.0 * 2 * (16 * 2048 + 2304), 1e-6);
}

TEST(Pipeline, MoreStagesThanLayersIsInvalid) {
  EXPECT_EQ(predict(uniform_workload(), config(Kind::Pipeline, 9, 9)).status, Status::Invalid);
}

TEST(Memory, TooLargeBatchIsOutOfMemoryNotAnError) {
  auto w = uniform_workload();
  w.dataset_samples = 1'000'000;  // a batch is at most the dataset
  const auto p = predict(w, config(Kind::Serial, 1, 1'000'000));
  EXPECT_EQ(p.status, Status::OutOfMemory);
  EXPECT_EQ(p.limit, Limit::Memory);
  EXPECT_FALSE(p.reason.empty());
  // a batch larger than the dataset is no epoch: invalid, without figures
  const auto more = predict(w, config(Kind::Serial, 1, 1'000'001));
  EXPECT_EQ(more.status, Status::Invalid);
  EXPECT_EQ(more.reason,
            "batch 1000001 > the dataset's 1000000 samples (an epoch is less than one batch)");
  EXPECT_TRUE(std::isnan(more.epoch_time_s) && std::isnan(more.memory_per_gpu_bytes));
  EXPECT_TRUE(more.memory.empty() && more.communication.empty());
}

}  // namespace
}  // namespace paradise::strategy

namespace paradise::strategy {
namespace {

TEST(GradientAllreducePolicy, DataParallelUsesTheChosenAlgorithm) {
  Config c = config(Kind::Data, 16, 32);
  c.gradient_allreduce = cost::AllreduceAlgorithm::Rabenseifner;
  const auto p = predict(uniform_workload(), c);
  // 32 samples / batch 32 per iteration over 1000 samples: 32 iterations (ceil), each one
  // Rabenseifner allreduce of 18,432 weights * 4 B on 16 ABCI GPUs (leaf level)
  const auto link = system::abci().link_for(16);
  EXPECT_NEAR(p.epoch_communication_s, 32 * cost::allreduce_rabenseifner(link, 16, 18432.0 * 4),
              1e-12);
  EXPECT_EQ(p.communication[0].collective, "allreduce/rabenseifner");
}

TEST(Hybrids, GpusMustBeAMultipleOfTheGroup) {
  const auto df = predict(uniform_workload(), config(Kind::DataFilter, 6, 12));
  EXPECT_EQ(df.status, Status::Invalid);
  EXPECT_NE(df.reason.find("multiple of the group size p2 = 4"), std::string::npos) << df.reason;
  EXPECT_EQ(predict(uniform_workload(), config(Kind::DataSpatial, 6, 12)).status, Status::Invalid);
}

TEST(Hybrids, DataFilterSplitsComputeInsideTheGroupAndBatchAcross) {
  const auto p = predict(uniform_workload(), config(Kind::DataFilter, 8, 20));
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  // p1 = 2 groups of p2 = 4: 50 iterations x 10 samples x 8 ms / 4 = I b c_p2
  EXPECT_NEAR(p.epoch_compute_s, 50 * 10 * 8e-3 / 4, 1e-9);
}

// The paradise variant's pipeline transfers, by hand: 8 stages of one 16x8x8 convolution each
// on 8 ABCI GPUs (two nodes of 4), B / S = 64 / 8 samples of 1,024 fp32 elements = 32 KiB per
// boundary. Six boundaries stay in a node (NVLink: 9 us, 50 GB/s), GPU 3 -> 4 crosses the
// network (one GPU's share: 40.31 us, 12.5 GB/s). Per iteration each micro-batch crosses
// every boundary forward and back: the fill and drain wait for all of them, the other S - 1
// go at the slowest boundary's pace behind the next micro-batch's compute; ceil(1000/64) = 16
// iterations.
TEST(Pipeline, ParadiseTransfersTakeEachBoundarysOwnLink) {
  Config c = config(Kind::Pipeline, 8, 64);
  c.variant = Variant::Paradise;
  c.segments = 8;
  Workload w = uniform_workload();
  w.measured_time = true;  // its 1 ms per layer and sample: 8 ms slots, far above a transfer
  const auto p = predict(w, c);
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  const double bytes = 8 * 1024 * 4;
  const double nvlink = 9e-6 + bytes / 50e9, network = 40.31e-6 + bytes / 12.5e9;
  const double fill = 6 * nvlink + network, steady = 7 * network;
  double transfers = -1;
  for (const auto& part : p.communication)
    if (part.name == "stage boundary send/recv") transfers = part.epoch_s;
  EXPECT_NEAR(transfers, 16 * 2 * (fill + steady), 1e-12);
  EXPECT_NEAR(p.epoch_overlapped_s, 16 * 2 * steady, 1e-12);
  // with compute slots shorter than a transfer, a transfer hides behind one slot of its
  // direction only: (S - 1) slots per iteration, of the p + S - 1 its compute takes
  for (double& t : w.layer_time_s) t *= 1e-6;
  const auto fast = predict(w, c);
  EXPECT_NEAR(fast.epoch_overlapped_s, fast.epoch_compute_s * 7 / 15, 1e-12);
  c.policies.overlap_pipeline_transfers = false;
  EXPECT_EQ(predict(w, c).epoch_overlapped_s, 0);
}

// Keeping every activation gradient never needs less than keeping the largest pair, even
// when that pair holds the model's input, in no layer's output: 64 x 64 x 64 into one 1x1
// filter, pair 262,144 + 4,096 elements, kept outputs 4,096. Freed as PyTorch does, only the
// output's gradient is ever alive: autograd makes none for the data.
TEST(Memory, KeptGradientsAreNeverFewerThanTheLargestPair) {
  model::Graph g("wide_input", 2);
  g.conv(g.input(), "c", 1, 1, 1, 0);
  Workload w = uniform_workload();
  w.model = model::analyze(g, model::Shape::image(64, 64, 64));
  w.layer_time_s.assign(w.model.layers.size(), 1e-3);
  w.active = default_active_layers(w.model);
  Config c = config(Kind::Serial, 1, 1);
  c.variant = Variant::Paradise;
  const auto gradients = [&](bool keep) {
    c.policies.free_activation_gradients = !keep;
    for (const auto& m : predict(w, c).memory)
      if (m.name == "activation gradients") return m.bytes;
    return -1.0;
  };
  EXPECT_EQ(gradients(true), 4 * (262144.0 + 4096));
  EXPECT_EQ(gradients(false), 4 * 4096.0);
}

TEST(Spatial, MoreGpusThanTheNarrowestSplitLayerIsInvalid) {
  // the 8x8 layers can be split along W at most 8 ways
  const auto p = predict(uniform_workload(), config(Kind::Spatial, 16, 16));
  EXPECT_EQ(p.status, Status::Invalid);
  EXPECT_NE(p.reason.find("smallest extent 8 of spatial dimension 1"), std::string::npos)
      << p.reason;
  EXPECT_EQ(predict(uniform_workload(), config(Kind::Spatial, 4, 16)).status, Status::Ok);
}

// One part has no neighbour: no halo, whichever variant or split (it cost ParaDL's W-only
// halo before, 37% of serial for ResNet-110 on cifar10)
TEST(Spatial, OneGpuExchangesNoHalo) {
  for (const Variant v : {Variant::Paradl, Variant::Paradise}) {
    for (const bool all_dims : {false, true}) {
      Config c = config(Kind::Spatial, 1, 16);
      c.variant = v;
      c.spatial_split = all_dims ? SpatialSplit::All : SpatialSplit::W;
      const auto p = predict(uniform_workload(), c);
      ASSERT_EQ(p.status, Status::Ok) << p.reason;
      ASSERT_EQ(p.communication[0].name, "halo exchange of x and dL/dy");
      EXPECT_EQ(p.communication[0].epoch_s, 0.0);
    }
  }
}

TEST(Spatial, SplittingEveryDimensionShrinksTheHaloFaces) {
  Config c = config(Kind::Spatial, 16, 16);
  c.spatial_split = SpatialSplit::All;  // 16 = 4 x 4 over H and W of the 8x8 layers
  const auto p = predict(uniform_workload(), c);
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  // per conv (k = 3: 1 halo row) and split dimension: 4 messages (x and dL/dy, 2 neighbours)
  // of B * C * 1 * ceil(8/4) = 16 * 16 * 2 elements = 2048 B; 8 convs x 2 dimensions;
  // 16 ABCI GPUs span a leaf group: 40.31 us, 12.5 GB/s; ceil(1000/16) = 63 iterations
  const double per_iteration = 8 * 2 * 4 * (40.31e-6 + 2048 / 12.5e9);
  ASSERT_EQ(p.communication[0].name, "halo exchange of x and dL/dy");
  EXPECT_NEAR(p.communication[0].epoch_s, 63 * per_iteration, 1e-12);
}

// The prediction with every convolution marked parallel and no shorter split to fall back
// to, as a .lc file marking them would give.
Prediction every_conv_marked(const Workload& w, const Config& c) {
  Workload marked = w;
  marked.spatial_prefixes.clear();
  return predict(marked, c);
}

// CosmoFlow at 128^3 (Mathuriya et al.; `paradise models --show cosmoflow`): each conv's
// narrower side of input and output is conv1 126 (128 - 3 + 1), conv2 63, conv3 31, conv4 15
// (3x3x3 padded convs after 2x2x2 pools), conv5 6 (k = 2 on 7), conv6 2 (k = 2 on 3) and
// conv7 1 (k = 2 on 2). With the default layer config a spatial split of p stops at the last
// convolution of the prefix that is at least p wide; a .lc file is followed as it is.
TEST(Spatial, DefaultLayersStopBeforeTheFirstConvolutionTooNarrowToSplit) {
  const auto w = make_workload({"cosmoflow", "cosmoflow", "abci", "", 0});
  const std::vector<std::pair<std::int64_t, std::string>> expected{
      {2, "conv6"},  {3, "conv5"},  {6, "conv5"},  {7, "conv4"},  {15, "conv4"},
      {16, "conv3"}, {31, "conv3"}, {32, "conv2"}, {64, "conv1"}, {126, "conv1"}};
  for (const auto& [p, layer] : expected) {
    for (const Variant v : {Variant::Paradl, Variant::Paradise}) {
      Config c = config(Kind::Spatial, p, 4);
      c.variant = v;
      const auto got = predict(w, c);
      ASSERT_EQ(got.status, Status::Ok) << p << ": " << got.reason;
      ASSERT_GE(got.split_layer, 0);
      EXPECT_EQ(w.model.layers[static_cast<std::size_t>(got.split_layer)].name, layer) << p;
      // the same prediction as a layer config that marks only those convolutions
      Workload explicit_lc = w;
      explicit_lc.spatial_prefixes.clear();
      for (std::size_t i = static_cast<std::size_t>(got.split_layer) + 1; i < w.active.size(); ++i)
        explicit_lc.active[i] = false;
      const auto same = predict(explicit_lc, c);
      EXPECT_DOUBLE_EQ(same.epoch_time_s, got.epoch_time_s) << p;
      EXPECT_DOUBLE_EQ(same.memory_per_gpu_bytes, got.memory_per_gpu_bytes) << p;
    }
  }
  const auto wide = predict(w, config(Kind::Spatial, 127, 4));
  EXPECT_EQ(wide.status, Status::Invalid);
  EXPECT_EQ(wide.reason,
            "127 parts > the extent 126 of spatial dimension 1 of the first parallel layer");
  // every convolution marked, as a .lc file would: conv7 cannot be split in two
  const auto strict = every_conv_marked(w, config(Kind::Spatial, 2, 4));
  EXPECT_EQ(strict.status, Status::Invalid);
  EXPECT_NE(strict.reason.find("smallest extent 1 of spatial dimension 1"), std::string::npos)
      << strict.reason;
}

// data+spatial splits the width p2 = 4 ways inside an ABCI node: CosmoFlow's default split
// stops at conv5 (6 wide), and a config marking conv7 (1 wide) is invalid, not projected.
// Groups wider than the smallest filter count are invalid whatever the batch: that reason, the
// model's, is given before a batch that does not divide among the groups (16 filters here)
TEST(Hybrids, DataFilterNamesTheFilterLimitBeforeTheBatch) {
  Config c = config(Kind::DataFilter, 64, 3);
  c.p2 = 32;
  const auto p = predict(uniform_workload(), c);
  EXPECT_EQ(p.status, Status::Invalid);
  EXPECT_EQ(p.reason, "p2 = 32 > the smallest filter count 16");
}

TEST(Hybrids, DataSpatialGroupsCannotSplitLayersNarrowerThanTheGroup) {
  const auto w = make_workload({"cosmoflow", "cosmoflow", "abci", "", 0});
  const auto p = predict(w, config(Kind::DataSpatial, 16, 16));
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  EXPECT_EQ(w.model.layers[static_cast<std::size_t>(p.split_layer)].name, "conv5");
  // ParaDL's model (docs/cost-model.md §data-spatial): T_comp = (D / p1) [sum over split layers of
  // t_l / p2 + sum over the others of t_l]; its code stops at the split layer, but a split the
  // default config cut short must count the replicated layers after it
  Config paradl = config(Kind::DataSpatial, 16, 16);
  paradl.variant = Variant::Paradl;
  const auto pd = predict(w, paradl);
  ASSERT_EQ(pd.status, Status::Ok) << pd.reason;
  double t = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i)
    t += w.layer_time_s[i] / (w.active[i] && static_cast<int>(i) <= p.split_layer ? 4 : 1);
  EXPECT_NEAR(pd.epoch_compute_s, 524288.0 / 4 * t, 1e-9 * pd.epoch_compute_s);
  const auto strict = every_conv_marked(w, config(Kind::DataSpatial, 16, 16));
  EXPECT_EQ(strict.status, Status::Invalid);
  EXPECT_NE(strict.reason.find("4 parts > the smallest extent 1"), std::string::npos)
      << strict.reason;
}

// The paradise variant with --spatial-split all.
Config all_dims(Kind k, std::int64_t p, std::int64_t b) {
  Config c = config(k, p, b);
  c.variant = Variant::Paradise;
  c.spatial_split = SpatialSplit::All;
  return c;
}

// The name of a prediction's last split layer.
std::string split_name(const Workload& w, const Prediction& p) {
  return p.split_layer < 0 ? "" : w.model.layers[static_cast<std::size_t>(p.split_layer)].name;
}

// --spatial-split all in data+spatial's groups (paradise variant): p2 = 4 is 2 x 2 over
// CosmoFlow's W and H, so the default split reaches conv6 (2 wide, see above), not conv5.
TEST(Hybrids, DataSpatialGroupsCanSplitEveryDimension) {
  const auto w = make_workload({"cosmoflow", "cosmoflow", "abci", "", 0});
  Config all = all_dims(Kind::DataSpatial, 4, 16);
  const auto ds = predict(w, all);
  ASSERT_EQ(ds.status, Status::Ok) << ds.reason;
  EXPECT_EQ(split_name(w, ds), "conv6");
  // one group (p1 = 1) is the spatial strategy on its 4 GPUs: the same split, the same halo
  // (checked by hand in Spatial.SplittingEveryDimensionShrinksTheHaloFaces)
  Config spatial = all;
  spatial.kind = Kind::Spatial;
  const auto sp = predict(w, spatial);
  ASSERT_EQ(sp.status, Status::Ok) << sp.reason;
  EXPECT_EQ(sp.split_layer, ds.split_layer);
  ASSERT_EQ(ds.communication[0].name, "halo exchange of x and dL/dy");
  EXPECT_DOUBLE_EQ(ds.communication[0].epoch_s, sp.communication[0].epoch_s);
  EXPECT_DOUBLE_EQ(ds.epoch_compute_s, sp.epoch_compute_s);
  // W only, the split stops at conv5: conv6's activations are replicated, so more memory
  Config w_only = all;
  w_only.spatial_split = SpatialSplit::W;
  const auto width = predict(w, w_only);
  ASSERT_EQ(width.status, Status::Ok) << width.reason;
  EXPECT_LT(ds.memory_per_gpu_bytes, width.memory_per_gpu_bytes);
  // ParaDL's data+spatial has no such split: refused, not silently W-only
  all.variant = Variant::Paradl;
  const auto paradl = predict(w, all);
  EXPECT_EQ(paradl.status, Status::Invalid);
  EXPECT_NE(paradl.reason.find("needs the paradise variant"), std::string::npos) << paradl.reason;
}

// --spatial-split all writes P as pw x ph so that the split reaches as far as it can:
// ResNet-50's last convolutions are 7 x 7, and of 20 = 2 x 2 x 5 only 5 x 4 and 4 x 5 fit
// them (10 x 2, say, cuts W finer than a column); ties go to W.
TEST(Spatial, AllDimensionsTakesAFactorizationThatFitsTheNarrowestLayers) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  Config c = all_dims(Kind::Spatial, 20, 96);
  const auto p = predict(w, c);
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  EXPECT_EQ(split_name(w, p), "layer4.2.conv3");
  EXPECT_EQ(p.split_parts, (std::array<std::int64_t, 3>{5, 4, 1}));
  // 16 = 4 x 4, the squarest, over the same layers
  c.gpus = 16;
  const auto q = predict(w, c);
  ASSERT_EQ(q.status, Status::Ok) << q.reason;
  EXPECT_EQ(q.split_parts, (std::array<std::int64_t, 3>{4, 4, 1}));
  EXPECT_EQ(q.split_layer, p.split_layer);
}

}  // namespace
}  // namespace paradise::strategy

namespace paradise::strategy {
namespace {

// A ParaDL .net file's shapes are fixed (its Input line: 3x226x226 for AlexNet): a dataset of
// other samples is refused, naming both shapes (it was ignored: 4x64^3 volumes gave AlexNet
// at 3x226x226 a status ok); imagenet-paradl, 3x226x226, is taken.
TEST(Workload, AParadlNetFileRefusesADatasetOfAnotherShape) {
  const std::string net = PARADISE_PARADL_DIR "/model/ALEXNET_ImageNet.net";
  try {
    make_workload({net, "my:50000:4x64x64x64", "abci", "", 0});
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("whose input is 3x226x226"), std::string::npos) << what;
    EXPECT_NE(what.find("has samples 4x64x64x64"), std::string::npos) << what;
  }
  EXPECT_THROW(make_workload({net, "imagenet", "abci", "", 0}), InputError);  // 3x224x224
  EXPECT_EQ(make_workload({net, "imagenet-paradl", "abci", "", 0}).dataset_samples, 1280000);
}

}  // namespace
}  // namespace paradise::strategy
