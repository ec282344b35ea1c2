// One GPU's activation memory under a spatial split (strategy/memory/split_memory.cpp): tiles,
// tensors gathered whole after the split, and the convolutions' halos, by hand and against
// PyTorch's measured step at the tile's input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "paradise/strategy/predict.hpp"
#include "paradise_test_helpers.hpp"

namespace paradise::strategy {
namespace {

double halos(const Prediction& p) {
  return memory_part(p, "halos of the split layers' inputs");
}

Prediction split_step(const Workload& w, std::int64_t gpus, bool all_dims) {
  auto c = paradise_config(Kind::Spatial, gpus, 1);
  c.spatial_split = all_dims ? SpatialSplit::All : SpatialSplit::W;
  const auto p = predict(w, c);
  EXPECT_EQ(p.status, Status::Ok) << p.reason;
  return p;
}

// One padded 3x3x3 convolution, 4 -> 8 channels on 8^3, one sample, fp32. By hand:
//  * 8 GPUs, 2x2x2: the largest tile 4^3. Saved: the input's tile, 4 x 64 = 256 elements
//    (1,024 B). Its halo: one neighbour per dimension (a dimension cut in two), 1 row
//    each: 4 x (5^3 - 4^3) = 244 elements (976 B). The gradients in the convolution's
//    backward: dL/dy's tile 8 x 64 = 512 (2,048 B); it reads the data, so it runs no
//    BW_data and needs no halo of dL/dy (docs/cost-model.md §spatial-halo: exchanged before
//    BW_data).
//  * 4 GPUs along W: a tile 2 x 8 x 8, two neighbours: input 4 x 128 = 512 (2,048 B), halo
//    4 x (4 - 2) x 64 = 512 (2,048 B), gradients 8 x 128 = 1,024 (4,096 B).
//  * 2 GPUs along W: a tile 4 x 8 x 8, one neighbour: input 1,024 (4,096 B), halo 4 x 64 =
//    256 (1,024 B), gradients 8 x 256 = 2,048 (8,192 B).
//  * 2-D, 4x9x9 on 2 GPUs along W: the larger tile ceil(9 / 2) = 5 rows, input 4 x 5 x 9 =
//    180 (720 B), halo 4 x 1 x 9 = 36 (144 B), gradients 8 x 45 = 360 (1,440 B).
TEST(SpatialMemory, HalosOfOneConvolutionByHand) {
  const auto w = written_model("onec", "model onec\ninput 4x8x8x8\nc1 conv out=8 k=3 p=1\n",
                               "small:1000:4x8x8x8");
  struct Case {
    std::int64_t gpus;
    bool all_dims;
    double saved, halo, gradients;
  };
  for (const Case& k : {Case{8, true, 1024, 976, 2048}, Case{4, false, 2048, 2048, 4096},
                        Case{2, false, 4096, 1024, 8192}}) {
    const auto p = split_step(w, k.gpus, k.all_dims);
    EXPECT_EQ(memory_part(p, "saved activations"), k.saved) << k.gpus;
    EXPECT_EQ(halos(p), k.halo) << k.gpus;
    EXPECT_EQ(memory_part(p, "activation gradients"), k.gradients) << k.gpus;
  }
  const auto odd = written_model("onec9", "model onec9\ninput 4x9x9\nc1 conv out=8 k=3 p=1\n",
                                 "small:1000:4x9x9");
  const auto p = split_step(odd, 2, false);
  EXPECT_EQ(memory_part(p, "saved activations"), 720);
  EXPECT_EQ(halos(p), 144);
  EXPECT_EQ(memory_part(p, "activation gradients"), 1440);
}

// Two such convolutions with a ReLU between, 2x2x2 on 8 GPUs. Saved: the input's tile (256)
// and r1's output's, kept once for r1's backward and c2's weight gradient (8 x 64 = 512):
// 768 elements (3,072 B).
// Halos: c1's 244 and c2's 8 x 61 = 488: 732 (2,928 B). The gradients peak in c2's backward,
// before anything is released: dL/dy 512, its halo 488, dL/dx 512: 1,512 (6,048 B).
TEST(SpatialMemory, HalosOfTwoConvolutionsByHand) {
  const auto w = written_model(
      "twoc", "model twoc\ninput 4x8x8x8\nc1 conv out=8 k=3 p=1\nr1 relu\nc2 conv out=8 k=3 p=1\n",
      "small:1000:4x8x8x8");
  const auto p = split_step(w, 8, true);
  EXPECT_EQ(memory_part(p, "saved activations"), 3072);
  EXPECT_EQ(halos(p), 2928);
  EXPECT_EQ(memory_part(p, "activation gradients"), 6048);
}

// A tensor read after the split is gathered whole on every GPU: a convolution on 4x8x8,
// then a dense layer (not split), 2 GPUs along W. Saved: the input's tile 4 x 4 x 8 = 128
// and c1's whole output, kept for the dense layer, 8 x 64 = 512: 640 elements (2,560 B;
// a tile of it would say 1,536). Halo: 4 x 1 x 8 = 32 (128 B). Gradients at the dense
// layer's backward: dL/dy 10 and dL/dx 512: 522 (2,088 B).
TEST(SpatialMemory, TensorsGatheredAfterTheSplitAreWhole) {
  const auto w = written_model("gath",
                               "model gath\ninput 4x8x8\nc1 conv out=8 k=3 p=1\nf flatten\n"
                               "d dense out=10\n",
                               "small:1000:4x8x8");
  const auto p = split_step(w, 2, false);
  EXPECT_EQ(w.model.layers[static_cast<std::size_t>(p.split_layer)].name, "c1");
  EXPECT_EQ(memory_part(p, "saved activations"), 2560);
  EXPECT_EQ(halos(p), 128);
  EXPECT_EQ(memory_part(p, "activation gradients"), 2088);
}

// Who keeps a tensor read after the split decides its size: 2 GPUs along W, 4x8x8, c1 and
// an in-place ReLU r1 (one buffer), c2, then layers that run whole after c2.
//  * skipadd: an add reads c2 and r1 after the split; an add saves nothing, so r1's buffer
//    is kept by r1 and c2, split, as the tile 8 x 4 x 8 = 256 (gathered whole only for the
//    forward pass). Saved: the data's tile 128, that 256, and the add's output, whole, for
//    the dense layer (through the flatten), 512: 896 elements (3,584 B).
//  * aliasbn: a batch norm after the split reads r1 (its alias) and saves it: r1's buffer is
//    kept whole, 512: 128 + 512 + 512 = 1,152 (4,608 B); the batch norm's output, read
//    only by the add, is not kept.
// Halos in both: c1's 4 x 1 x 8 and c2's 8 x 1 x 8: 96 (384 B).
TEST(SpatialMemory, TensorsSavedAfterTheSplitAreWholeThoseOnlyReadAreTiles) {
  const std::string head =
      "input 4x8x8\nc1 conv out=8 k=3 p=1\nr1 relu inplace=1\nc2 conv out=8 k=3 p=1\n";
  const std::string tail = "f flatten\nd dense out=10\n";
  const auto skipadd = written_model(
      "skipadd", "model skipadd\n" + head + "s add from=c2,r1\n" + tail, "small:1000:4x8x8");
  const auto aliasbn = written_model(
      "aliasbn", "model aliasbn\n" + head + "b batchnorm from=r1\ns add from=c2,b\n" + tail,
      "small:1000:4x8x8");
  for (const auto* w : {&skipadd, &aliasbn}) {
    const auto p = split_step(*w, 2, false);
    EXPECT_EQ(w->model.layers[static_cast<std::size_t>(p.split_layer)].name, "c2");
    EXPECT_EQ(memory_part(p, "saved activations"), w == &skipadd ? 3584 : 4608);
    EXPECT_EQ(halos(p), 384);
  }
}

// A ParaDL .net chain, whose layers keep their inputs (summary_network2): CONV_1 and CONV_2
// split along W on 2 GPUs, APOOL_1 whole after them. Saved: CONV_1's input, the data's tile
// 4 x 4 x 8 = 128; CONV_2's, CONV_1's output's tile 8 x 4 x 8 = 256; APOOL_1's, CONV_2's
// whole output 512: 896 (3,584 B). Halos 4 x 8 + 8 x 8 = 96 (384 B). Gradients at
// APOOL_1's backward: its output 8 x 4 x 4 = 128 and input 512: 640 (2,560 B).
TEST(SpatialMemory, AChainKeepsItsSplitLayersInputsAsTiles) {
  const std::string path = testing::TempDir() + "/chain.net";
  std::ofstream(path) << "Dataset|small\nInput|1000x4x8x8\nModel|chain\n"
                      << "CONV_1|4x8x8|4x8x3x3|8x8x8|0\nCONV_2|8x8x8|8x8x3x3|8x8x8|0\n"
                      << "APOOL_1|8x8x8|0x0x2x2|8x4x4|0\n";
  const auto w = make_workload({path, "", "abci", "", 0});
  const auto p = split_step(w, 2, false);
  EXPECT_EQ(w.model.layers[static_cast<std::size_t>(p.split_layer)].name, "CONV_2");
  EXPECT_EQ(memory_part(p, "saved activations"), 3584);
  EXPECT_EQ(halos(p), 384);
  EXPECT_EQ(memory_part(p, "activation gradients"), 2560);
}

// The halo of a window beyond 'same' 3x3 (model::window_halos: x's rows p below and e - s - p
// above the tile, e = d(k - 1) + 1), one sample of 4 x 8 x 8 in fp32, split along the first
// dimension, by hand:
//  * stride 2 (k=3 s=2 p=1), 4 GPUs: tiles of 2 rows; output row o reads rows 2o-1..2o+1,
//    so a tile needs the row below it and none above: 4 x 1 x 8 = 32 elements (128 B); the
//    convolution reads the data, so no dL/dy halo (gradients: its output's tile 8 x 1 x 4 =
//    32, 128 B). The ParaDL rule, (k-1)/2 rows from both neighbours, said 256 B;
//  * dilation 2 (k=3 p=2 d=2, e = 5), 2 GPUs: 2 rows from the one neighbour, 4 x 2 x 8 = 64
//    (256 B), where (k-1)/2 gives 1;
//  * 4 x 4 x 4 on 3 GPUs: tiles of 2, 2 and 0 rows, so the largest has one neighbour: one
//    row, 4 x 4 = 16 elements (64 B), not two;
//  * stride 2 on 1 x 9 x 9, 2 GPUs: GPU 0's tile of 5 rows (not a multiple of 2) computes
//    the rows o with 2o in 0..4, o = 2 reading rows 3..5: one row above, 9 elements (36 B),
//    where a tile that lines up with the stride reads none;
//  * k=3x1 p=1x0 (and its transpose k=1x3) on 2 x 2 GPUs, a tile 4 x 4: one row along the
//    3-wide dimension only, 4 x (5 x 4 - 16) = 16 elements per convolution, two of them
//    (the second after an in-place ReLU): 128 B either way round.
TEST(SpatialMemory, HalosFollowStrideDilationEmptyPartsAndEachDimensionsKernel) {
  const auto one = [](const std::string& name, const std::string& input, const std::string& conv) {
    return written_model(name, "model " + name + "\ninput " + input + "\nc1 conv " + conv + "\n",
                         "small:1000:" + input);
  };
  const auto strided = one("s2", "4x8x8", "out=8 k=3 s=2 p=1");
  const auto s2 = split_step(strided, 4, false);
  EXPECT_EQ(halos(s2), 128);
  EXPECT_EQ(memory_part(s2, "activation gradients"), 128);
  // its exchange: that one message per iteration, 8 samples' 32 elements, over ABCI's NVLink
  // (ParaDL's get_network_factor: 9 us, 50 GB/s; T_p2p = alpha + m beta, docs/cost-model.md
  // §paradl-collectives), 125 iterations of the 1,000 samples
  const auto c = paradise_config(Kind::Spatial, 4, 8);
  const double exchange = 125 * (9e-6 + 8 * 32 * 4 / 50e9);
  EXPECT_NEAR(part_s(predict(strided, c), "halo exchange of x and dL/dy"), exchange,
              1e-9 * exchange);
  EXPECT_EQ(halos(split_step(one("dil", "4x8x8", "out=4 k=3 p=2 d=2"), 2, false)), 256);
  EXPECT_EQ(halos(split_step(one("odd", "1x9x9", "out=1 k=3 s=2 p=1"), 2, false)), 36);
  EXPECT_EQ(halos(split_step(one("four", "4x4x4", "out=4 k=3 p=1"), 3, false)), 64);
  for (const std::string k : {"k=3x1 p=1x0", "k=1x3 p=0x1"}) {
    const auto w = written_model("kk",
                                 "model kk\ninput 4x8x8\nc1 conv out=4 " + k +
                                     "\nr relu inplace=1\nc2 conv out=4 " + k + "\n",
                                 "small:1000:4x8x8");
    EXPECT_EQ(halos(split_step(w, 4, true)), 128) << k;
  }
}

// The halo exchange by hand: c1 (4 -> 8) and c2 (8 -> 8), 3x3 'same', on 4 x 8 x 8, batch
// 2, 500 iterations of the 1,000 samples, over ABCI's NVLink (9 us, 50 GB/s; T_p2p = alpha +
// m beta, docs/cost-model.md §paradl-collectives). One row per side; a face of x is C_in x 8 x 2
// samples x 4 B, of dL/dy C_out x 8 x 2 x 4 B. c1 reads the data, so it receives no dL/dy halo.
//  * 2 GPUs: each has one neighbour: c1 one x message (256 B), c2 one of x and one of dL/dy
//    (512 B each): 3 alpha + 1,280 B beta per iteration;
//  * 4 GPUs: the inner ones have two: c1 2 x 256 B, c2 2 x 512 + 2 x 512 B: 6 alpha + 2,560
//    B beta.
TEST(SpatialMemory, HaloExchangeCountsTheNeighboursEachGpuHas) {
  const auto w = written_model(
      "twoc", "model twoc\ninput 4x8x8\nc1 conv out=8 k=3 p=1\nc2 conv out=8 k=3 p=1\n",
      "small:1000:4x8x8");
  for (const auto& [gpus, messages, bytes] : {std::tuple{2, 3.0, 1280.0}, {4, 6.0, 2560.0}}) {
    const double exchange = 500 * (messages * 9e-6 + bytes / 50e9);
    EXPECT_NEAR(
        part_s(predict(w, paradise_config(Kind::Spatial, gpus, 2)), "halo exchange of x and dL/dy"),
        exchange, 1e-9 * exchange)
        << gpus;
  }
}

// dL/dx of a split layer is a tile of its input even where its output is gathered whole, and
// a pool's dL/dx a tile of its own input, 2 GPUs along the first dimension, by hand:
//  * g2: c1 4 -> 32 and c2 32 -> 8 (3x3, 'same') on 4 x 8 x 8, then flatten and dense. c2's
//    output is read whole by the dense layer, so its gradient comes back whole (512); c2's
//    dL/dx is c1's output's tile, 32 x 4 x 8 = 1,024; the dense layer's backward has
//    already released the whole 512 it saved: 1,536 - 512 = 1,024 elements (4,096 B). (The
//    gradient scaled by the output's share said 8,192 B.)
//  * pl2: c1 (3x3 'same') on 4 x 9 x 9, a 3x3 max pool of stride 2 (4 x 4 x 4), c2 (3x3
//    'same'), all split; tiles of 5 of 9 rows and 2 of 4. Saved: the data's tile 4 x 5 x 9
//    = 180, c1's output's 180, the pool's 4 x 2 x 4 = 32 (392 elements, 1,568 B) and the
//    pool's int64 indices 8 x 32 = 256 B: 1,824 B. Halos of x: c1 one row of the 9 (one
//    neighbour), 4 x 9 = 36; the pool, on a tile of 5 rows (not a multiple of its stride),
//    computes the rows o with 2o in 0..4, o = 2 reading rows 4..6: two rows above (e - 1 -
//    p), 4 x 2 x 9 = 72; c2 one of the 4, 4 x 4 = 16: 124 (496 B). Gradients peak in the
//    pool's backward:
//    its output's tile 32, its dL/dx 4 x 5 x 9 = 180 and dL/dy's halo (ceil((e-1-p)/s) = 1
//    row, 4 x 4 = 16): 228 elements, less what c2's backward released, its saved input 32 and
//    its halo 16: 180 elements (720 B). (Scaled by the pool's output's share: 648 B.)
TEST(SpatialMemory, InputGradientsAreTilesOfTheLayersInput) {
  const auto g2 = written_model("g2",
                                "model g2\ninput 4x8x8\nc1 conv out=32 k=3 p=1\n"
                                "c2 conv out=8 k=3 p=1\nf flatten\nd dense out=10\n",
                                "small:1000:4x8x8");
  EXPECT_EQ(memory_part(split_step(g2, 2, false), "activation gradients"), 4096);
  const auto pl2 = written_model("pl2",
                                 "model pl2\ninput 4x9x9\nc1 conv out=4 k=3 p=1\n"
                                 "mp maxpool k=3 s=2\nc2 conv out=4 k=3 p=1\n",
                                 "small:1000:4x9x9");
  const auto p = split_step(pl2, 2, false);
  EXPECT_EQ(memory_part(p, "saved activations"), 1824);
  EXPECT_EQ(halos(p), 496);
  EXPECT_EQ(memory_part(p, "activation gradients"), 720);
}

// 3D U-Net split through every layer (its loss is per voxel): without halos one GPU holds
// the model at the tile's input. PyTorch measured the step at 3x64x64x64
// (torch_reference.json, training_peak_bytes_per_sample: 1,056,440,320 B), which is the
// tile of 128^3 split 2x2x2 on 8 GPUs, of 256^3 split 4x4x4 on 64, and of data+spatial's
// groups of 8 GPUs at 128^3 (two groups, a sample each). The halos by hand from its
// per-layer table (paradise models --show unet3d): each 3x3x3 convolution's C_in (t + h)^3 -
// t^3) over its tile side t, h = 1 row from the one neighbour of a dimension cut in two, 2
// from the two of one cut in four (pools and up-convolutions have k = 2: no halo):
//  * 2x2x2 at 128^3: C_in 3 + 32 + 192 + 64 = 291 at t = 64 (12,481), 64 + 64 + 384 + 128 =
//    640 at 32 (3,169), 128 + 128 + 768 + 256 = 1,280 at 16 (817), 512 at 8 (217):
//    6,816,995 elements, 27,267,980 B;
//  * 4x4x4 at 256^3: the same at (t + 2)^3 - t^3: 25,352, 6,536, 1,736, 488: 14,032,408
//    elements, 56,129,632 B.
TEST(SpatialMemory, UNetTilesAreTheModelAtTheTilesInput) {
  std::ifstream in(PARADISE_TEST_DATA "/torch_reference.json");
  const auto entry = nlohmann::json::parse(in).at("models").at("unet3d");
  ASSERT_EQ(entry.at("input").get<std::string>(), "3x64x64x64");
  const double measured = entry.at("training_peak_bytes_per_sample").get<double>();
  struct Case {
    Kind kind;
    int side;
    std::int64_t gpus, batch, p2;
    double halo;
  };
  for (const Case& k :
       {Case{Kind::Spatial, 128, 8, 1, 0, 27267980}, Case{Kind::Spatial, 256, 64, 1, 0, 56129632},
        Case{Kind::DataSpatial, 128, 16, 2, 8, 27267980}}) {
    const std::string side = std::to_string(k.side);
    const auto w =
        make_workload({"unet3d", "x:100:3x" + side + "x" + side + "x" + side, "dgx-h200", "", 0});
    auto c = paradise_config(k.kind, k.gpus, k.batch);
    c.spatial_split = SpatialSplit::All;
    c.p2 = k.p2;
    c.policies.spatial_halo_memory = false;
    const auto tiles = predict(w, c);
    ASSERT_EQ(tiles.status, Status::Ok) << tiles.reason;
    EXPECT_EQ(tiles.split_parts[0] * tiles.split_parts[1] * tiles.split_parts[2],
              k.kind == Kind::Spatial ? k.gpus : k.p2);
    EXPECT_EQ(activation_memory(tiles), measured) << side;
    EXPECT_EQ(halos(tiles), 0);
    c.policies.spatial_halo_memory = true;
    const auto haloed = predict(w, c);
    EXPECT_EQ(halos(haloed), k.halo) << side;
    // the gradients peak before any 3x3x3 convolution's backward has released its halo (in
    // the tail after them), so the step holds the tiles' peak and every halo
    EXPECT_EQ(activation_memory(haloed), measured) << side;
  }
}

}  // namespace
}  // namespace paradise::strategy
