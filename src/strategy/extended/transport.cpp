// How an implementation moves an exchange's bytes (docs/implementations.md §transport):
// GPU-direct on the network levels, or staged through the host: a device-to-host copy over
// the node's PCIe tree, MPI between host buffers (within a node through host memory, which is
// not the bottleneck; across nodes over the same levels and adapters), a host-to-device copy.
#include <algorithm>

#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {

double staged_copy_s(const Workload& w, const Config& c, double bytes) {
  if (bytes <= 0) return 0;
  return w.system.host.latency_s + bytes / detail::host_copy_Bps(w, c);
}

namespace {

// Whether this call's bytes go GPU to GPU: always GPU-direct; CUDA-aware MPI within a node.
bool direct_path(implementation::Transport t, bool across_nodes) {
  return t == implementation::Transport::GpuDirect ||
         (t == implementation::Transport::CudaAwareMpi && !across_nodes);
}

// The staged path: copies out, the network across nodes, copies in; one after another when
// the code stages explicitly, pipelined chunk by chunk by CUDA-aware MPI (Open MPI's openib
// BTL), where the slower of the copies and the network counts.
double staged_s(implementation::Transport t, double copies_s, double network_s) {
  return t == implementation::Transport::CudaAwareMpi ? std::max(copies_s, network_s)
                                                      : copies_s + network_s;
}

// Whether exchange `e` among GPUs spanning `span` goes through CUDA-aware MPI across nodes,
// where a collective runs as the steps of Open MPI's own algorithm (below).
bool in_mpi_steps(const Workload& w, const Config& c, Exchange e, std::int64_t span) {
  return rule(c, e).transport == implementation::Transport::CudaAwareMpi &&
         span > w.system.gpus_per_node;
}

// The steps of Open MPI's fixed choice for MPI_Allgatherv (coll/tuned,
// coll_tuned_decision_fixed.c): Bruck below 50,000 bytes, else neighbour exchange for even q
// (q/2 steps), a ring for odd q.
double allgatherv_steps(std::int64_t q, double total_bytes) {
  if (total_bytes < 50000) return cost::ceil_log2(q);
  return static_cast<double>(q % 2 == 0 ? q / 2 : q - 1);
}

// CUDA-aware MPI across nodes, as ChainerMN calls it: MPI_Allgatherv for an allgather and,
// for the partial sums, MPI_Alltoallv (Open MPI's pairwise exchange, q - 1 steps) and a
// local sum. Each step is a point-to-point message staged through host buffers chunk by
// chunk (docs/implementations.md §transport): it waits for the link's latency and a copy's
// start-up at each end, and only the bytes pipeline with the network.
double staged_steps_s(const Workload& w, const system::Link& link, double steps,
                      double network_bytes_s, double copies_s) {
  const double start_ups = 2 * w.system.host.latency_s;
  return steps * (link.alpha_s + start_ups) + std::max(copies_s - start_ups, network_bytes_s);
}

}  // namespace

double collective_s(const Workload& w, const Config& c, Exchange e, Collective op, std::int64_t q,
                    std::int64_t span, std::int64_t flows, double n) {
  if (q < 2 || n <= 0) return 0;
  const system::Link link = link_of(w, span, flows);
  const double parts = static_cast<double>(q);
  const auto network = [&] {
    switch (op) {
      case Collective::Allgather:  // n: the gathered whole
        return cost::allgather_ring(link, q, n);
      case Collective::ReduceScatter:  // n: the whole before scattering
        return cost::reduce_scatter_ring(link, q, n);
      case Collective::Allreduce:
        return cost::allreduce_ring(link, q, n);
    }
    return 0.0;
  };
  const bool across = span > w.system.gpus_per_node;
  const auto t = rule(c, e).transport;
  if (direct_path(t, across)) return network();
  // per GPU, out to the host and back: its share and the whole (allgather), the whole and
  // its share (reduce-scatter), the whole both ways (allreduce); MPI's ring between host
  // buffers across nodes, through host memory within one
  const double out = op == Collective::Allgather ? n / parts : n;
  const double in = op == Collective::ReduceScatter ? n / parts : n;
  const double copies = staged_copy_s(w, c, out) + staged_copy_s(w, c, in);
  if (in_mpi_steps(w, c, e, span) && op != Collective::Allreduce) {
    // the ring formulas charge (q - 1) alpha; the rest of network() is the bytes
    const double ring_latency_s = static_cast<double>(q - 1) * link.alpha_s;
    const double steps = op == Collective::Allgather ? allgatherv_steps(q, n) : parts - 1;
    return staged_steps_s(w, link, steps, network() - ring_latency_s, copies);
  }
  return staged_s(t, copies, across ? network() : 0);
}

std::string_view collective_label(const Workload& w, const Config& c, Exchange e, Collective op,
                                  std::int64_t q, std::int64_t span) {
  const bool mpi_steps = in_mpi_steps(w, c, e, span);
  if (op == Collective::ReduceScatter)
    return mpi_steps ? "alltoall/pairwise+sum (MPI)" : "reduce-scatter/ring";
  if (!mpi_steps) return "allgather/ring";
  return q % 2 == 0 ? "allgather/neighbour-exchange (MPI)" : "allgather/ring (MPI)";
}

double send_s(const Workload& w, const Config& c, Exchange e, const system::Link& link,
              bool across_nodes, double n) {
  if (n <= 0) return 0;
  const auto t = rule(c, e).transport;
  if (direct_path(t, across_nodes)) return cost::p2p(link, n);
  return staged_s(t, 2 * staged_copy_s(w, c, n), across_nodes ? cost::p2p(link, n) : 0);
}

GradientExchange allreduce_exchange(const Workload& w, const Config& c, Exchange e, std::int64_t p,
                                    std::int64_t span, double bytes, std::int64_t flows) {
  const double overhead = p > 1 ? c.implementation.rule(e).overhead_s : 0;
  const auto t = rule(c, e).transport;
  if (t == implementation::Transport::GpuDirect) {
    auto x = nccl_allreduce(w, c, p, span, bytes, flows);
    x.seconds += overhead;
    return x;
  }
  const bool mpi = t == implementation::Transport::CudaAwareMpi;
  return {collective_s(w, c, e, Collective::Allreduce, p, span, flows, bytes) + overhead,
          mpi ? "allreduce/ring (MPI)" : "allreduce/host-staged"};
}

void input_broadcast(const Workload& w, const Config& c, Builder& b, std::int64_t group,
                     double samples) {
  if (!c.implementation.input_broadcast || group < 2 || samples <= 0) return;
  // the decoded batch as float32 host arrays (ParaDL's loaders), the loading rank's MPI
  // binomial broadcast (across nodes on the network; within a node through host memory),
  // then each GPU's copy of the whole batch
  const double bytes = samples * static_cast<double>(w.model.input.elements()) * 4;
  const bool across = group > w.system.gpus_per_node;
  const double s = (across ? cost::broadcast_binomial(link_of(w, group, 0), group, bytes) : 0) +
                   staged_copy_s(w, c, bytes);
  b.comm("input batch broadcast from the loading rank", "broadcast/binomial", "IO", group, s,
         implementation::Transport::HostStaged, 0);
}

}  // namespace paradise::strategy::extended
