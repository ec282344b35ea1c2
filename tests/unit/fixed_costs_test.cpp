// The extended model's fixed costs and GPU profiles (issue 36): kernel counts, the launch
// floor, throughput against batch and GPU, and capacities in the vendor's unit.
#include <gtest/gtest.h>

#include <cmath>

#include "paradise/model/dataset.hpp"
#include "paradise/model/graph.hpp"
#include "paradise/strategy/kernels.hpp"
#include "paradise/strategy/roofline.hpp"
#include "paradise/system/catalog.hpp"
#include "paradise_test_helpers.hpp"

namespace paradise::strategy {
namespace {

Workload small_on(const std::string& system) {
  const std::string path = testing::TempDir() + "/kernels.model";
  std::ofstream(path) << "model kernels\ninput 3x32x32\nc1 conv out=16 k=3 p=1\nbn batchnorm\n"
                         "relu relu\npool adaptive_avgpool size=1\nflat flatten\n"
                         "fc dense out=10 bias=1\nloss softmax_ce\n";
  return make_workload({path, "small:1000:3x32x32", system, "", 0});
}

// Counted by hand from the kernels PyTorch issues (docs/gpu-profiles.md §fixed-costs):
// input 0; c1, the first layer, forward and dL/dW only (no gradient to the data) 2;
// batchnorm's cuDNN forward and backward 2; relu 2; the pool 2; flatten, a view, 0; fc
// forward, dL/dx, dL/dW and its bias's add and reduction 5; log_softmax and nll_loss with
// their backward passes 4.
TEST(FixedCosts, KernelsPerLayerCountedByHand) {
  const auto w = small_on("dgx-a100");
  const int expected[] = {0, 2, 2, 2, 2, 0, 5, 4};
  ASSERT_EQ(w.model.layers.size(), std::size(expected));
  for (std::size_t i = 0; i < w.model.layers.size(); ++i)
    EXPECT_EQ(layer_kernels(w.model.layers[i], Precision::Fp32), expected[i]) << i;
  // autocast casts the weights of c1 and fc (not batchnorm's) once per forward pass
  EXPECT_EQ(layer_kernels(w.model.layers[1], Precision::Mixed), 3);
  EXPECT_EQ(layer_kernels(w.model.layers[6], Precision::Mixed), 6);
  // 5 parameter tensors (c1's weight, bn's scale and shift, fc's weight and bias) fit one
  // multi-tensor launch: momentum SGD's 3 foreach ops; mixed adds the scaler's 2 kernels
  EXPECT_EQ(w.parameter_tensors, 5);
  const auto step = [&](Precision p) {
    return optimizer_kernels(w.parameter_tensors, w.parameter_elements, Optimizer::Momentum, p);
  };
  EXPECT_EQ(step(Precision::Fp32), 3);
  EXPECT_EQ(step(Precision::Mixed), 5);
}

// At batch 1 a step is bound by issuing its kernels: it costs at least their launches.
TEST(FixedCosts, BatchOneCostsAtLeastItsKernelLaunches) {
  for (const char* system : {"dgx1-v100", "dgx-a100", "dgx-h100"}) {
    const auto w = small_on(system);
    auto c = paradise_config(Kind::Serial, 1, 1);
    const auto p = predict(w, c);
    const double kernels = 17 + 3;  // the hand counts above
    EXPECT_GE(p.iteration_compute_s, kernels * w.system.gpu.kernel_launch_s) << system;
    EXPECT_GT(w.system.gpu.kernel_launch_s, 0) << system;
  }
}

double samples_per_s(const Workload& w, Precision precision, std::int64_t batch, bool* fits) {
  auto c = paradise_config(Kind::Data, 1, batch);
  c.precision = precision;
  const auto p = predict(w, c);
  *fits = p.status == Status::Ok;
  return static_cast<double>(batch) / p.iteration_time_s;
}

// Throughput per GPU does not fall as the batch grows, up to the batch that no longer fits
// (NVIDIA's single-GPU tables: throughput rises with the batch).
TEST(FixedCosts, ThroughputDoesNotFallWithTheBatch) {
  for (const char* system : {"dgx1-v100", "dgx-a100", "dgx-h200"}) {
    const auto w = make_workload({"resnet50", "imagenet", system, "", 0});
    for (const auto precision : {Precision::Fp32, Precision::Tf32, Precision::Mixed}) {
      double before = 0;
      for (std::int64_t batch = 1; batch <= 4096; batch *= 2) {
        bool fits = false;
        const double now = samples_per_s(w, precision, batch, &fits);
        if (!fits) break;
        EXPECT_GE(now, before) << system << " " << precision_name(precision) << " " << batch;
        before = now;
      }
      EXPECT_GT(before, 0) << system;
    }
  }
}

// A GPU that is faster on every datasheet number is never slower, at any batch and precision.
TEST(FixedCosts, AFasterGpuIsNeverSlower) {
  const char* generations[] = {"dgx1-v100", "dgx-a100", "dgx-h100", "dgx-h200"};
  for (const char* model : {"resnet50", "vgg16", "cosmoflow"}) {
    const char* dataset = std::string(model) == "cosmoflow" ? "cosmoflow" : "imagenet";
    for (const auto precision : {Precision::Fp32, Precision::Tf32, Precision::Mixed}) {
      for (const std::int64_t batch : {1, 8, 64}) {
        double slower = 0;
        for (const char* system : generations) {
          const auto w = make_workload({model, dataset, system, "", 0});
          bool fits = false;
          const double now = samples_per_s(w, precision, batch, &fits);
          EXPECT_GE(now, slower) << model << " " << system << " " << precision_name(precision)
                                 << " batch " << batch;
          slower = now;
        }
      }
    }
  }
}

// Capacities in the vendor's unit, by hand: "16 GB" and "80 GB" of HBM are 16 and 80 GiB;
// usable is totalGlobalMem (capacity less the driver's reservation; deviceQuery in
// tests/data/measured/kernel-overheads.csv: 85,100,068,864 B on an A100-SXM4-80GB) less the
// DGX systems' 5% margin. ParaDL's ABCI keeps its 16e9 bytes (MEM_PER_NODE, ABCI.plat).
TEST(FixedCosts, CapacitiesInGiB) {
  const auto a100 = system::find_system("dgx-a100");
  EXPECT_EQ(a100.gpu.memory_bytes, 85899345920.0);
  EXPECT_DOUBLE_EQ(a100.usable_memory_bytes(), 85100068864.0 * 0.95);
  EXPECT_EQ(system::find_system("dgx1-v100").gpu.memory_bytes, 17179869184.0);
  EXPECT_EQ(system::find_system("dgx-h200").gpu.memory_bytes, 141.0 * 1073741824.0);
  const auto abci = system::find_system("abci");
  EXPECT_EQ(abci.gpu.memory_bytes, 16e9);
  EXPECT_EQ(abci.usable_memory_bytes(), 16e9);
}

TEST(FixedCosts, SystemFileCapacityKeys) {
  const std::string head =
      "[system]\nname = x\ngpus_per_node = 1\nmax_gpus = 1\n[gpu]\nmemory_bandwidth_GBps = 900\n"
      "peak_fp32_TFLOPs = 15\n";
  const std::string level = "[level.node]\nspan_gpus = 1\nbandwidth_GBps = 10\nlatency_us = 1\n";
  const auto parse = [&](const std::string& gpu_keys) {
    std::istringstream in(head + gpu_keys + level);
    return system::parse_system_file(in, "x.system");
  };
  const auto s = parse("memory_GiB = 32\nreserved_MiB = 512\n");
  EXPECT_EQ(s.gpu.memory_bytes, 32.0 * 1073741824);
  EXPECT_EQ(s.gpu.reserved_bytes, 512.0 * 1048576);
  EXPECT_EQ(parse("memory_GB = 32\n").gpu.memory_bytes, 32e9);
  const auto error = [&](const std::string& keys) {
    try {
      parse(keys);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("memory_GiB = 32\nmemory_GB = 32\n"),
            "x.system:9: memory_GB '32': give memory_GiB or memory_GB, not both (line 8)");
  EXPECT_EQ(error(""),
            "x.system:5: section 'gpu': missing key 'memory_GiB' (or 'memory_GB', in 10^9 bytes)");
  // 32 GiB hold 32,768 MiB: a reservation of all of them leaves nothing
  EXPECT_EQ(error("memory_GiB = 32\nreserved_MiB = 32768\n"),
            "x.system:9: reserved_MiB '32768': must be below the capacity (memory_GiB or "
            "memory_GB)");
  EXPECT_EQ(error("memory_GiB = 32\nefficiency_max_conv3d_tf32 = 1.5\n"),
            "x.system:9: efficiency_max_conv3d_tf32 '1.5': must be <= 1 (implausible)");
  // 3x3 convolutions may beat the peak in direct FLOPs, by Winograd's F(4x4, 3x3) at most
  EXPECT_EQ(parse("memory_GiB = 32\nefficiency_max_conv3x3_fp32 = 1.7\n")
                .gpu.efficiency_max(system::GemmClass::Conv3x3, 0),
            1.7);
  EXPECT_EQ(error("memory_GiB = 32\nefficiency_max_conv3x3_fp32 = 4.5\n"),
            "x.system:9: efficiency_max_conv3x3_fp32 '4.5': must be <= 4 (implausible)");
  EXPECT_EQ(error("memory_GiB = 32\nattainment_depthwise_mixed = 1.5\n"),
            "x.system:9: attainment_depthwise_mixed '1.5': must be <= 1 (implausible)");
  const auto a = parse("memory_GiB = 32\nattainment_grouped_fp32 = 0.25\n");
  EXPECT_EQ(a.gpu.attainment(system::GroupedConv::Grouped, 0), 0.25);
  EXPECT_EQ(a.gpu.attainment(system::GroupedConv::Depthwise, 0), 1);  // not given: the roof
}

// Depthwise and grouped convolutions take their roofline time over their own attainment
// (docs/gpu-profiles.md §grouped); a dense convolution keeps its roofline. The layers by
// hand: 16 channels in groups of 1 (depthwise), of 4, and one group (1x1).
TEST(FixedCosts, GroupedConvolutionsOverTheirAttainment) {
  const std::string path = testing::TempDir() + "/grouped.model";
  std::ofstream(path) << "model grouped\ninput 16x16x16\n"
                         "dw conv out=16 k=3 p=1 groups=16\ng conv out=16 k=3 p=1 groups=4\n"
                         "pw conv out=16 k=1\npool adaptive_avgpool size=1\nflat flatten\n"
                         "fc dense out=10\nloss softmax_ce\n";
  const auto w = make_workload({path, "grouped:1000:16x16x16", "dgx1-v100", "", 0});
  const auto& layers = w.model.layers;
  ASSERT_EQ(layers[1].groups, 16);
  ASSERT_EQ(layers[2].groups, 4);
  ASSERT_EQ(layers[3].groups, 1);
  system::Gpu plain = w.system.gpu;
  plain.grouped_attainment = {};
  system::Gpu slow = plain;
  slow.grouped_attainment[0] = {0.5, 0, 0.2};  // depthwise: fp32, (tf32), mixed
  slow.grouped_attainment[1] = {0.25, 0, 0.1};
  const auto time = [&](const system::Gpu& g, Precision p, std::size_t i) {
    return roofline_layer_s(g, p, layers[i], 32, 1, GemmSplit::Samples,
                            gemm_curve(g, layers[i], p));
  };
  EXPECT_DOUBLE_EQ(time(slow, Precision::Fp32, 1), time(plain, Precision::Fp32, 1) / 0.5);
  EXPECT_DOUBLE_EQ(time(slow, Precision::Fp32, 2), time(plain, Precision::Fp32, 2) / 0.25);
  EXPECT_DOUBLE_EQ(time(slow, Precision::Mixed, 1), time(plain, Precision::Mixed, 1) / 0.2);
  EXPECT_DOUBLE_EQ(time(slow, Precision::Mixed, 2), time(plain, Precision::Mixed, 2) / 0.1);
  // the V100 has no TF32 units: tf32 runs at fp32, with fp32's attainment
  EXPECT_DOUBLE_EQ(time(slow, Precision::Tf32, 1), time(plain, Precision::Tf32, 1) / 0.5);
  EXPECT_DOUBLE_EQ(time(slow, Precision::Fp32, 3), time(plain, Precision::Fp32, 3));
  EXPECT_GT(time(plain, Precision::Fp32, 1), 0);
}

// 2-D 3x3 stride-1 convolutions of one group, which cuDNN may run with Winograd's algorithm
// (docs/gpu-profiles.md §conv3x3), take the conv3x3 class's e_max; every other convolution
// keeps conv2d's, and conv3x3 unset takes conv2d's too. The layers by hand: a 3x3 of stride
// 1 (the class), of stride 2, dilated, grouped, a 1x1, and a 3x3x3 in 3-D.
TEST(FixedCosts, ThreeByThreeConvolutionsHaveAClassOfTheirOwn) {
  const std::string path = testing::TempDir() + "/conv3x3.model";
  std::ofstream(path) << "model conv3x3\ninput 16x16x16\n"
                         "a conv out=16 k=3 p=1\nb conv out=16 k=3 s=2 p=1\n"
                         "c conv out=16 k=3 p=2 d=2\nd conv out=16 k=3 p=1 groups=4\n"
                         "e conv out=16 k=1\npool adaptive_avgpool size=1\nflat flatten\n"
                         "fc dense out=10\nloss softmax_ce\n";
  const auto w = make_workload({path, "c:1000:16x16x16", "dgx1-v100", "", 0});
  const auto& layers = w.model.layers;
  std::vector<system::GemmClass> classes;
  for (std::size_t i = 1; i <= 5; ++i) classes.push_back(gemm_class(layers[i]));
  using system::GemmClass;
  EXPECT_EQ(classes,
            (std::vector<GemmClass>{GemmClass::Conv3x3, GemmClass::Conv2d, GemmClass::Conv2d,
                                    GemmClass::Conv2d, GemmClass::Conv2d}));
  model::Graph cube("cube", 3);
  cube.conv(cube.input(), "c", 8, 3, 1, 1);
  EXPECT_EQ(gemm_class(model::analyze(cube, model::Shape::volume(8, 8, 8, 8)).layers[1]),
            GemmClass::Conv3d);

  system::Gpu g = w.system.gpu;
  g.class_efficiency_max = {};
  g.class_efficiency_max[0][0] = 0.5;                                        // conv2d, fp32
  EXPECT_EQ(gemm_curve(g, layers[1], Precision::Fp32).efficiency_max, 0.5);  // unset: conv2d's
  g.class_efficiency_max[3][0] = 2.0;  // conv3x3, fp32: twice conv2d's rate
  EXPECT_EQ(gemm_curve(g, layers[1], Precision::Fp32).efficiency_max, 2.0);
  EXPECT_EQ(gemm_curve(g, layers[2], Precision::Fp32).efficiency_max, 0.5);
  // compute-bound at 256 samples (layer a: 2 x 16 x 16 x 16 x 144 MACs a sample over 3 x 16 x
  // 16 x 16 elements of traffic), so the time is a quarter
  system::Gpu direct = g;
  direct.class_efficiency_max[3][0] = 0.5;
  const auto time = [&](const system::Gpu& gpu) {
    return roofline_layer_s(gpu, Precision::Fp32, layers[1], 256, 1, GemmSplit::Samples,
                            gemm_curve(gpu, layers[1], Precision::Fp32));
  };
  EXPECT_DOUBLE_EQ(time(g), time(direct) / 4);
}
}  // namespace
}  // namespace paradise::strategy

namespace paradise::strategy {
namespace {

// Bytes a sample takes on storage, by hand: ImageNet's 140 GB of 1,281,167 + 50,000 JPEGs
// (Dell EMC's reference guide, §3.1); CosmoFlow's 4 x 128^3 int16 particle counts.
TEST(InputPipeline, StoredBytesPerSample) {
  EXPECT_DOUBLE_EQ(model::find_dataset("imagenet").stored_bytes(), 140e9 / 1331167);
  EXPECT_EQ(model::find_dataset("cosmoflow").stored_bytes(), 4.0 * 128 * 128 * 128 * 2);
  // at another resolution (a sweep's resolution axis) a built-in keeps its storage
  EXPECT_EQ(model::find_dataset(model::dataset_at_side("cosmoflow", 512)).stored_bytes(),
            4.0 * 512 * 512 * 512 * 2);
  EXPECT_EQ(model::find_dataset("x:10:3x8x8").stored_bytes(), 3 * 8 * 8 * 4.0);  // fp32
}

// A JPEG run fed by too few cores waits for them, and is marked input-bound: 128 cores at 100
// images/s each deliver 12,800 images/s to a node, so 2,048 images take 0.16 s, more than
// the 8 A100s' mixed-precision step (about 0.1 s).
TEST(InputPipeline, ADecodeBoundRunIsMarkedInput) {
  auto w = make_workload({"resnet50", "imagenet", "dgx-a100", "", 0});
  auto c = paradise_config(Kind::Data, 8, 2048);
  c.precision = Precision::Mixed;
  const auto fed = predict(w, c);
  ASSERT_EQ(fed.limit, Limit::Compute);
  EXPECT_EQ(fed.epoch_input_s, 0);
  w.system.input.cpu_cores_per_node = 128;
  w.system.input.jpeg_samples_per_core_s = 100;
  const auto starved = predict(w, c);
  EXPECT_EQ(starved.limit, Limit::Input);
  EXPECT_DOUBLE_EQ(starved.iteration_time_s, 2048.0 / 12800);
  const double iterations = static_cast<double>(starved.iterations_per_epoch);
  EXPECT_NEAR(starved.epoch_input_s, (2048.0 / 12800 - fed.iteration_time_s) * iterations,
              1e-9 * starved.epoch_time_s);
  EXPECT_NEAR(starved.epoch_time_s, fed.epoch_time_s + starved.epoch_input_s,
              1e-9 * starved.epoch_time_s);
  // ParaDL's model has no input pipeline
  c.variant = Variant::Paradl;
  c.precision = Precision::Fp32;
  const auto paradl = predict(w, c);
  EXPECT_EQ(paradl.epoch_input_s, 0);
  EXPECT_NE(paradl.limit, Limit::Input);
}

// A 3-D volume run is bound by the file system's aggregate rate: CosmoFlow at 512^3 stores
// 1 GiB a sample (4 x 512^3 int16), so 64 samples at 50 GB/s take 1.37 s per iteration, more
// than one sample's step on an A100 (the ParaDL-sized 512^3 needs 28 GB: no V100 holds it).
TEST(InputPipeline, AFileSystemBoundVolumeRun) {
  auto w = make_workload({"cosmoflow", "cosmoflow512", "dgx-a100", "", 0});
  w.system.input.filesystem_Bps = 50e9;
  const auto p = predict(w, paradise_config(Kind::Data, 64, 64));
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  EXPECT_EQ(p.limit, Limit::Input);
  EXPECT_DOUBLE_EQ(p.iteration_time_s, 64 * 1073741824.0 / 50e9);
}

// The evaluation pass (per-epoch fixed cost, asked for): ImageNet's 50,000 validation images
// at the training batch of 256 are ceil(50,000 / 256) = 196 forward-only iterations. Data
// parallelism has no per-layer exchange, so each costs the forward share of the step's
// compute, 1 - backward_share (sum_layers: backward FLOPs / all), and the framework's time
// per step (docs/implementations.md); no gradient exchange.
TEST(EvaluationPass, DataParallelIsTheForwardShareOfTheStep) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  auto c = paradise_config(Kind::Data, 32, 256);
  const auto train = predict(w, c);
  c.eval_samples = 50000;
  const auto both = predict(w, c);
  const double forward = 1 - sum_layers(w).backward_share;
  EXPECT_GT(forward, 0.2);  // about a third: backward is dL/dx and dL/dW
  EXPECT_LT(forward, 0.5);
  const double step = c.implementation.step_overhead_s;
  EXPECT_GT(step, 0);  // the default profile's
  const double want = 196 * (train.iteration_compute_s * forward + step);
  EXPECT_NEAR(both.epoch_eval_s, want, 1e-12 * want);
  EXPECT_NEAR(both.epoch_time_s, train.epoch_time_s + want, 1e-12 * both.epoch_time_s);
  EXPECT_EQ(both.iteration_time_s, train.iteration_time_s);  // training steps unchanged
  EXPECT_EQ(both.limit, train.limit);
  EXPECT_EQ(train.epoch_eval_s, 0);
}

// Filter parallelism exchanges activations in every layer, forward (allgather of y) and
// backward (reduction of dL/dx) alike: the evaluation pays half of those (FB) parts, with
// its forward compute and the framework's time per step.
TEST(EvaluationPass, ModelParallelPaysTheForwardHalfOfItsExchanges) {
  const auto w = make_workload({"resnet50", "imagenet", "abci", "", 0});
  auto c = paradise_config(Kind::Filter, 4, 64);
  c.eval_samples = 1000;  // ceil(1000 / 64) = 16 iterations
  const auto p = predict(w, c);
  ASSERT_EQ(p.status, Status::Ok) << p.reason;
  double per_layer_s = 0;
  for (const auto& part : p.communication) {
    if (part.phase == "FB")
      per_layer_s += part.epoch_s / static_cast<double>(p.iterations_per_epoch);
  }
  ASSERT_GT(per_layer_s, 0);
  const double want = 16 * (p.iteration_compute_s * (1 - sum_layers(w).backward_share) +
                            per_layer_s / 2 + c.implementation.step_overhead_s);
  EXPECT_NEAR(p.epoch_eval_s, want, 1e-12 * want);
}

// An input-bound evaluation waits for the pipeline as training does: 1,280 JPEGs per second
// per node (128 cores at 10) feed a node's 2,048 samples in 1.6 s, more than its forward pass.
TEST(EvaluationPass, WaitsForASlowInputPipeline) {
  auto w = make_workload({"resnet50", "imagenet", "dgx-a100", "", 0});
  w.system.input.cpu_cores_per_node = 128;
  w.system.input.jpeg_samples_per_core_s = 10;
  auto c = paradise_config(Kind::Data, 8, 2048);
  c.eval_samples = 4096;  // 2 iterations
  const auto p = predict(w, c);
  EXPECT_DOUBLE_EQ(p.epoch_eval_s, 2 * 2048.0 / 1280);
}

}  // namespace
}  // namespace paradise::strategy
