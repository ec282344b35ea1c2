// Collective costs against hand-derived values (formulas: docs/cost-model.md §collectives).
#include <gtest/gtest.h>

#include "paradise/cost/collectives.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::cost {
namespace {

const Link kLink{1e-6, 1e-9, 0};  // 1 us, 1 GB/s
constexpr double kN = 1e6;        // 1 MB

TEST(RingAllreduce, CostIsZeroOnOneRank) {
  EXPECT_EQ(allreduce_ring(kLink, 1, kN), 0.0);
}

TEST(RingAllreduce, Resnet50GradientsOnEightAbciGpus) {
  // docs/cost-model.md §ref-ring: 2*7*(40.31 us + 90,936,064/8 B / 12.5 GB/s) = 13.2954 ms
  const auto abci = system::abci();
  EXPECT_NEAR(allreduce_ring(abci.link_for(8), 8, 90936064.0), 0.01329538896, 1e-10);
}

TEST(RingAllreduce, Resnet50GradientsOnTwoAbciGpusUseNvlink) {
  // 2*1*(9 us + 45,468,032 B / 50 GB/s) = 1.83672128 ms
  const auto abci = system::abci();
  EXPECT_NEAR(allreduce_ring(abci.link_for(2), 2, 90936064.0), 0.00183672128, 1e-12);
}

TEST(RingAllreduce, BusBandwidthEqualsLinkBandwidthWithoutLatency) {
  // nccl-tests PERFORMANCE.md: busbw = algbw * 2(p-1)/p; with alpha = 0 it is 1/beta
  const Link l{0, 1e-9, 0};
  for (std::int64_t p : {2, 3, 7, 64}) {
    const double t = allreduce_ring(l, p, kN);
    const double busbw = kN / t * 2.0 * static_cast<double>(p - 1) / static_cast<double>(p);
    EXPECT_NEAR(busbw, 1e9, 1e-3) << p;
  }
}

TEST(RingAllreduce, GammaTermCountsTheReductionOnce) {
  // ((p-1)/p) n gamma = 3/4 * 1e6 * 1e-10 = 7.5e-5 on top of the alpha-beta cost
  const Link l{1e-6, 1e-9, 1e-10};
  EXPECT_NEAR(allreduce_ring(l, 4, kN) - allreduce_ring(kLink, 4, kN), 7.5e-5, 1e-15);
}

TEST(RecursiveDoublingAllreduce, LogStepsOfTheWholeMessage) {
  // lg 4 = 2 steps of (1 us + 1 ms)
  EXPECT_NEAR(allreduce_recursive_doubling(kLink, 4, kN), 2 * (1e-6 + 1e-3), 1e-15);
}

TEST(RabenseifnerAllreduce, PowerOfTwoAndOtherSizes) {
  // p = 8: 2*3 alpha + 2*(7/8) n beta = 6 us + 1.75 ms
  EXPECT_NEAR(allreduce_rabenseifner(kLink, 8, kN), 6e-6 + 1.75e-3, 1e-15);
  // p = 6: (2*2 + 2) alpha + (2*5/6 + 2) n beta = 6 us + 3.666... ms
  EXPECT_NEAR(allreduce_rabenseifner(kLink, 6, kN), 6e-6 + (10.0 / 6 + 2) * 1e-3, 1e-15);
}

TEST(RabenseifnerAllreduce, SameBandwidthTermAsRing) {
  // docs/cost-model.md §ref-identities: both move 2((p-1)/p) n bytes; only latency differs
  const Link l{0, 1e-9, 0};
  EXPECT_NEAR(allreduce_rabenseifner(l, 16, kN), allreduce_ring(l, 16, kN), 1e-15);
}

TEST(TreeAllreduce, BinomialAndDoubleBinary) {
  // binomial, p = 5: 2 * ceil(lg 5) = 6 steps of (1 us + 1 ms)
  EXPECT_NEAR(allreduce_binomial_tree(kLink, 5, kN), 6 * (1e-6 + 1e-3), 1e-15);
  // double binary tree, p = 16: 2*4 alpha + n beta / 0.45 (NCCL's tree algorithm bandwidth),
  // never below the bandwidth bound of any allreduce, 2(p-1)/p n beta
  EXPECT_NEAR(allreduce_double_binary_tree(kLink, 16, kN), 8e-6 + 1e-3 / 0.45, 1e-15);
  EXPECT_GT(allreduce_double_binary_tree(kLink, 16, kN), 2.0 * 15 / 16 * 1e-3);
}

TEST(TreeAllreduce, TwoLevelLatencyIsAChainInTheNodeAndTreesAcross) {
  // NCCL tuning.cc (docs/cost-model.md §nccl): 2((nRanks/nNodes - 1) intraLat + log2(nNodes)
  // interLat) + n / (0.45 busBw): 4 GPUs x 16 nodes, 1 us inside, 10 us across, 1 MB at
  // 1 GB/s: 2 (3 us + 4 x 10 us) + 1 ms / 0.45; the flat form charged 2 lg 64 = 12 x 10 us
  const Link intra{1e-6, 1e-10, 0};
  const Link inter{1e-5, 1e-9, 0};
  EXPECT_NEAR(allreduce_double_binary_tree_two_level(intra, inter, 4, 16, 1e6),
              2 * (3e-6 + 4e-5) + 1e-3 / 0.45, 1e-15);
  EXPECT_NEAR(allreduce_double_binary_tree(inter, 64, 1e6), 12e-5 + 1e-3 / 0.45, 1e-15);
  // one node of 8: a chain, 2 x 7 intra latencies; one rank per node: the trees only
  EXPECT_NEAR(allreduce_double_binary_tree_two_level(intra, intra, 8, 1, 1e6),
              14e-6 + 1e6 * 1e-10 / 0.45, 1e-15);
  EXPECT_NEAR(allreduce_double_binary_tree_two_level(intra, inter, 1, 5, 1e6),
              2 * 3 * 1e-5 + 1e-3 / 0.45, 1e-15);
  EXPECT_EQ(allreduce_double_binary_tree_two_level(intra, inter, 1, 1, 1e6), 0);
}

TEST(HierarchicalAllreduce, RingInsideThenRingOfAQuarterAcross) {
  const Link intra{1e-6, 1e-10, 0};
  const Link inter{1e-5, 1e-9, 0};
  // 2*3*(1 us + 0.25 MB * 0.1 ns/B) + 2*7*(10 us + (1 MB/4/8) * 1 ns/B)
  const double expected = 6 * (1e-6 + 2.5e-5) + 14 * (1e-5 + 3.125e-5);
  EXPECT_NEAR(allreduce_hierarchical(intra, inter, 4, 8, kN), expected, 1e-15);
}

TEST(Allgather, RingAndRecursiveDoubling) {
  // ring p = 4: 3 alpha + 3/4 n beta; recursive doubling p = 8: 3 alpha + 7/8 n beta
  EXPECT_NEAR(allgather_ring(kLink, 4, kN), 3e-6 + 0.75e-3, 1e-15);
  EXPECT_NEAR(allgather_recursive_doubling(kLink, 8, kN), 3e-6 + 0.875e-3, 1e-15);
}

TEST(ReduceScatter, RingAndRecursiveHalvingIncludeGamma) {
  const Link l{1e-6, 1e-9, 1e-10};
  // ring p = 4: 3 alpha + 3/4 n (beta + gamma) = 3 us + 0.825 ms
  EXPECT_NEAR(reduce_scatter_ring(l, 4, kN), 3e-6 + 0.825e-3, 1e-15);
  // halving p = 4: 2 alpha + 3/4 n (beta + gamma)
  EXPECT_NEAR(reduce_scatter_recursive_halving(l, 4, kN), 2e-6 + 0.825e-3, 1e-15);
}

TEST(RootedCollectives, BroadcastReduceScatterGather) {
  EXPECT_NEAR(broadcast_binomial(kLink, 8, kN), 3 * (1e-6 + 1e-3), 1e-15);
  EXPECT_NEAR(broadcast_scatter_allgather(kLink, 8, kN), 6e-6 + 1.75e-3, 1e-15);
  EXPECT_NEAR(reduce_binomial(kLink, 3, kN), 2 * (1e-6 + 1e-3), 1e-15);
  EXPECT_NEAR(scatter_binomial(kLink, 8, kN), 3e-6 + 0.875e-3, 1e-15);
  EXPECT_NEAR(gather_binomial(kLink, 8, kN), 3e-6 + 0.875e-3, 1e-15);
  EXPECT_EQ(scatter_binomial(kLink, 1, kN), 0.0);
}

TEST(PointToPoint, HockneyAndHalo) {
  EXPECT_NEAR(p2p(kLink, kN), 1e-6 + 1e-3, 1e-15);
  EXPECT_NEAR(halo_exchange(kLink, kN, 2), 2 * (1e-6 + 1e-3), 1e-15);
}

TEST(CeilLog2, SmallValues) {
  EXPECT_EQ(ceil_log2(1), 0);
  EXPECT_EQ(ceil_log2(2), 1);
  EXPECT_EQ(ceil_log2(5), 3);
  EXPECT_EQ(ceil_log2(1024), 10);
}

}  // namespace
}  // namespace paradise::cost
