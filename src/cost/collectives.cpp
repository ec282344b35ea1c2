#include "paradise/cost/collectives.hpp"

#include <bit>
#include <utility>

namespace paradise::cost {
namespace {

double frac(std::int64_t p) {
  return static_cast<double>(p - 1) / static_cast<double>(p);
}
double steps(std::int64_t p) {
  return static_cast<double>(p - 1);
}
bool power_of_two(std::int64_t p) {
  return std::has_single_bit(static_cast<std::uint64_t>(p));
}

}  // namespace

int ceil_log2(std::int64_t p) {
  return p <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<std::uint64_t>(p - 1)));
}

// Hockney model: T = alpha + n beta.
double p2p(const Link& l, double n) {
  return l.alpha_s + n * l.beta_s_per_byte;
}

// ParaDL eq. (10): one message per neighbour and tensor, T_p2p each.
double halo_exchange(const Link& l, double n, int neighbours) {
  return neighbours * p2p(l, n);
}

// Patarasuk & Yuan 2009 ring (reduce-scatter + allgather): 2(p-1)a + 2((p-1)/p)nb + ((p-1)/p)ng.
// Equals ParaDL's T_ar = 2(p-1)(a + (n/p)b) (TR §IV-B) when g = 0.
double allreduce_ring(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return 2 * steps(p) * l.alpha_s + 2 * frac(p) * n * l.beta_s_per_byte +
         frac(p) * n * l.gamma_s_per_byte;
}

// Thakur et al. 2005: lg p (a + nb + ng).
double allreduce_recursive_doubling(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p);
  return lg * (l.alpha_s + n * l.beta_s_per_byte + n * l.gamma_s_per_byte);
}

// Thakur et al. 2005: 2 lg p a + 2((p-1)/p)nb + ((p-1)/p)ng; non-power-of-two:
// (2 floor(lg p) + 2)a + (2(p-1)/p + 2)nb + n(1 + (p-1)/p)g.
double allreduce_rabenseifner(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  if (power_of_two(p)) {
    return 2.0 * ceil_log2(p) * l.alpha_s + 2 * frac(p) * n * l.beta_s_per_byte +
           frac(p) * n * l.gamma_s_per_byte;
  }
  const double floor_lg = ceil_log2(p) - 1;
  return (2 * floor_lg + 2) * l.alpha_s + (2 * frac(p) + 2) * n * l.beta_s_per_byte +
         n * (1 + frac(p)) * l.gamma_s_per_byte;
}

// Thakur et al. 2005, binomial reduce + binomial broadcast: 2 ceil(lg p)(a + nb) + ceil(lg p) ng.
double allreduce_binomial_tree(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  const double lg = ceil_log2(p);
  return 2 * lg * (l.alpha_s + n * l.beta_s_per_byte) + lg * n * l.gamma_s_per_byte;
}

// NCCL's pipelined double binary tree (docs/cost-model.md §nccl): 2 lg p a + n / algBw (+ n g),
// the tree's algorithm bandwidth 0.9 x 0.5 of the link's (NCCL tuning.cc): n b / 0.45, above
// any allreduce's 2(p-1)/p n b; it does not grow with p, the latency is logarithmic.
double allreduce_double_binary_tree(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return 2.0 * ceil_log2(p) * l.alpha_s + n * l.beta_s_per_byte / 0.45 + n * l.gamma_s_per_byte;
}

// NCCL tuning.cc (docs/cost-model.md §nccl): tree latency 2((nRanks/nNodes - 1) intraLat +
// log2(nNodes) interLat), the ranks of a node a chain; bandwidth as the flat tree's.
double allreduce_double_binary_tree_two_level(const Link& intra, const Link& inter, std::int64_t g,
                                              std::int64_t nodes, double n) {
  if (g * nodes <= 1) return 0;
  return 2.0 * (static_cast<double>(g - 1) * intra.alpha_s +
                static_cast<double>(ceil_log2(nodes)) * inter.alpha_s) +
         n * inter.beta_s_per_byte / 0.45 + n * inter.gamma_s_per_byte;
}

// docs/cost-model.md §two-level-allreduce (a): 2(g-1)(a_l + (n/g)b_l) + 2(N-1)(a_g + (n/(gN))b_g),
// ring at both levels (the reduce-scatter and allgather inside a node together cost a ring
// allreduce).
double allreduce_hierarchical(const Link& intra, const Link& inter, std::int64_t g,
                              std::int64_t nodes, double n) {
  return allreduce_ring(intra, g, n) + allreduce_ring(inter, nodes, n / static_cast<double>(g));
}

// Thakur et al. 2005: (p-1)a + ((p-1)/p)nb.
double allgather_ring(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return steps(p) * l.alpha_s + frac(p) * n * l.beta_s_per_byte;
}

// Thakur et al. 2005: lg p a + ((p-1)/p)nb.
double allgather_recursive_doubling(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return ceil_log2(p) * l.alpha_s + frac(p) * n * l.beta_s_per_byte;
}

// Thakur et al. 2005, pairwise exchange: (p-1)a + ((p-1)/p)nb + ((p-1)/p)ng.
double reduce_scatter_ring(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return steps(p) * l.alpha_s + frac(p) * n * (l.beta_s_per_byte + l.gamma_s_per_byte);
}

// Thakur et al. 2005, recursive halving: lg p a + ((p-1)/p)nb + ((p-1)/p)ng.
double reduce_scatter_recursive_halving(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return ceil_log2(p) * l.alpha_s + frac(p) * n * (l.beta_s_per_byte + l.gamma_s_per_byte);
}

// Thakur et al. 2005: ceil(lg p)(a + nb).
double broadcast_binomial(const Link& l, std::int64_t p, double n) {
  return ceil_log2(p) * (l.alpha_s + n * l.beta_s_per_byte);
}

// Thakur et al. 2005 (long messages): 2 lg p a + 2((p-1)/p)nb.
double broadcast_scatter_allgather(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return 2.0 * ceil_log2(p) * l.alpha_s + 2 * frac(p) * n * l.beta_s_per_byte;
}

// Thakur et al. 2005: ceil(lg p)(a + nb + ng).
double reduce_binomial(const Link& l, std::int64_t p, double n) {
  return ceil_log2(p) * (l.alpha_s + n * (l.beta_s_per_byte + l.gamma_s_per_byte));
}

// Thakur et al. 2005: lg p a + ((p-1)/p)nb, n = the whole array at the root.
double scatter_binomial(const Link& l, std::int64_t p, double n) {
  if (p <= 1) return 0;
  return ceil_log2(p) * l.alpha_s + frac(p) * n * l.beta_s_per_byte;
}
double gather_binomial(const Link& l, std::int64_t p, double n) {
  return scatter_binomial(l, p, n);
}

}  // namespace paradise::cost

namespace paradise::cost {

namespace {
constexpr std::pair<AllreduceAlgorithm, std::string_view> kAlgorithms[] = {
    {AllreduceAlgorithm::Ring, "ring"},
    {AllreduceAlgorithm::RecursiveDoubling, "recursive-doubling"},
    {AllreduceAlgorithm::Rabenseifner, "rabenseifner"},
    {AllreduceAlgorithm::BinomialTree, "binomial-tree"},
    {AllreduceAlgorithm::DoubleBinaryTree, "double-binary-tree"},
};
}  // namespace

std::string_view algorithm_name(AllreduceAlgorithm a) {
  for (const auto& [alg, name] : kAlgorithms) {
    if (alg == a) return name;
  }
  return "?";
}

std::string_view allreduce_label(AllreduceAlgorithm a) {
  switch (a) {
    case AllreduceAlgorithm::Ring:
      return "allreduce/ring";
    case AllreduceAlgorithm::RecursiveDoubling:
      return "allreduce/recursive-doubling";
    case AllreduceAlgorithm::Rabenseifner:
      return "allreduce/rabenseifner";
    case AllreduceAlgorithm::BinomialTree:
      return "allreduce/binomial-tree";
    case AllreduceAlgorithm::DoubleBinaryTree:
      return "allreduce/double-binary-tree";
  }
  return "allreduce/?";
}

std::optional<AllreduceAlgorithm> algorithm_from_name(std::string_view name) {
  for (const auto& [alg, n] : kAlgorithms) {
    if (n == name) return alg;
  }
  return std::nullopt;
}

double allreduce(AllreduceAlgorithm a, const Link& l, std::int64_t p, double n) {
  switch (a) {
    case AllreduceAlgorithm::Ring:
      return allreduce_ring(l, p, n);
    case AllreduceAlgorithm::RecursiveDoubling:
      return allreduce_recursive_doubling(l, p, n);
    case AllreduceAlgorithm::Rabenseifner:
      return allreduce_rabenseifner(l, p, n);
    case AllreduceAlgorithm::BinomialTree:
      return allreduce_binomial_tree(l, p, n);
    case AllreduceAlgorithm::DoubleBinaryTree:
      return allreduce_double_binary_tree(l, p, n);
  }
  return allreduce_ring(l, p, n);
}

}  // namespace paradise::cost
