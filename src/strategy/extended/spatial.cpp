// The extended model's spatial parallelism: every layer up to the split layer on its
// spatial partition (Policies::split_whole_prefix), halos by window (halo.cpp), NCCL's
// allgather of every tensor the layers after the split read, the gradient allreduce
// overlapped with the backward pass, memory of one GPU's tiles and halos.
#include "../memory/memory.hpp"
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {

void spatial(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo* memo) {
  const auto plan = detail::take_spatial_split(
      w, b, c.gpus, spatial_split_dims(c.spatial_split, w.model.input.rank), splits_every_layer(c));
  if (!plan) return;
  const int split = plan->last;
  const double p = static_cast<double>(c.gpus), B = static_cast<double>(c.batch), d = b.delta();
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(compute_s(w, c, memo, D, B, p, split), D / B);
  const system::Link link = link_of(w, c.gpus, 0);
  const double halo = spatial_exchanges(w, c, *plan, c.gpus, link, B, d, b);
  const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
  const auto x = overlapped_allreduce(w, c, c.gpus, s.w * element_bytes(c),
                                      iteration - bwd + halo / 2, bwd + halo / 2, s.gradient_ready);
  record(b, c, Exchange::Gradient, "gradient allreduce", x.label, "GE", c.gpus, x.total_s, x.calls);
  b.overlapped(x.total_s - x.exposed_s);
  zero3_parameter_allgather(b, c, s.w, c.gpus, link_of(w, c.gpus, 0));
  input_broadcast(w, c, b, c.gpus, B);
  const TileActivations tile = tile_activations(w, c, plan->parts, split);
  memory_account(b, s, c, B, s.w, c.gpus, std::nullopt, &tile);
}

}  // namespace paradise::strategy::extended
