// Alpha-beta(-gamma) costs of point-to-point and collective operations.
//
// n is the message size in bytes as each algorithm's source defines it (for allgather
// and reduce-scatter: the whole gathered / reduced array, as nccl-tests does); p is the
// communicator size. Formulas: Thakur, Rabenseifner & Gropp, IJHPCA 19(1), 2005, as
// reproduced in MPICH's source comments (docs/cost-model.md §collectives), unless noted.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "paradise/system/system.hpp"

namespace paradise::cost {

using system::Link;

// Point-to-point and neighbour exchange.
double p2p(const Link& l, double n);  ///< alpha + n beta
/// Halo exchange with `neighbours` neighbours, a send and a receive of n bytes each,
/// both directions concurrently: neighbours x (alpha + n beta) (ParaDL eq. 10 per tensor).
double halo_exchange(const Link& l, double n, int neighbours);

// Allreduce.
double allreduce_ring(const Link& l, std::int64_t p, double n);
double allreduce_recursive_doubling(const Link& l, std::int64_t p, double n);
double allreduce_rabenseifner(const Link& l, std::int64_t p, double n);
double allreduce_binomial_tree(const Link& l, std::int64_t p, double n);
double allreduce_double_binary_tree(const Link& l, std::int64_t p, double n);
/// NCCL's double binary tree over `nodes` nodes of g ranks each: a chain inside the node
/// (intra latencies), the trees between nodes (inter), the tree's bandwidth on `inter`.
double allreduce_double_binary_tree_two_level(const Link& intra, const Link& inter, std::int64_t g,
                                              std::int64_t nodes, double n);
/// Two-level: reduce-scatter inside g-GPU nodes, allreduce of n/g across N nodes,
/// allgather inside (docs/cost-model.md §two-level-allreduce (a)).
double allreduce_hierarchical(const Link& intra, const Link& inter, std::int64_t g,
                              std::int64_t nodes, double n);

// Allgather, reduce-scatter (n = the whole array).
double allgather_ring(const Link& l, std::int64_t p, double n);
double allgather_recursive_doubling(const Link& l, std::int64_t p, double n);
double reduce_scatter_ring(const Link& l, std::int64_t p, double n);
double reduce_scatter_recursive_halving(const Link& l, std::int64_t p, double n);

// Rooted collectives.
double broadcast_binomial(const Link& l, std::int64_t p, double n);
double broadcast_scatter_allgather(const Link& l, std::int64_t p, double n);
double reduce_binomial(const Link& l, std::int64_t p, double n);
double scatter_binomial(const Link& l, std::int64_t p, double n);
double gather_binomial(const Link& l, std::int64_t p, double n);

/// ceil(log2 p) for p >= 1.
int ceil_log2(std::int64_t p);

}  // namespace paradise::cost

namespace paradise::cost {

/// Which allreduce algorithm a policy uses for gradient exchanges. ParaDL uses the ring
/// for everything (TR §IV-B); the others are selectable for what-if studies.
enum class AllreduceAlgorithm : std::uint8_t {
  Ring,
  RecursiveDoubling,
  Rabenseifner,
  BinomialTree,
  DoubleBinaryTree
};

std::string_view algorithm_name(AllreduceAlgorithm a);
/// "allreduce/ring", ... (static storage: safe to keep as a view).
std::string_view allreduce_label(AllreduceAlgorithm a);
std::optional<AllreduceAlgorithm> algorithm_from_name(std::string_view name);
double allreduce(AllreduceAlgorithm a, const Link& l, std::int64_t p, double n);

}  // namespace paradise::cost
