// The extended model's layer (pipeline) parallelism over `stages` GPUs, `replicas` copies of
// the pipeline each taking batch / replicas samples (data+pipeline as HyPar-Flow,
// docs/cost-model.md §data-pipeline): stages balanced on the roofline's per-layer times, (S + p -
// 1) slots per iteration, 1F1B or GPipe in flight (PipeDream-Flush, docs/cost-model.md §pipeline),
// every tensor crossing a cut sent over its own link and overlapped with the next micro-batch's
// compute.
#include <string_view>
#include <vector>

#include "../memory/memory.hpp"
#include "extended.hpp"
#include "paradise/cost/collectives.hpp"

namespace paradise::strategy::extended {
namespace {

using detail::PipelineShape;

// The stages of a balanced partition, with what the cost formulas need of each.
struct StagePlan {
  std::vector<std::size_t> ends;  ///< each stage's end (into the layers from shape.first)
  double max_s = 0;               ///< the slowest stage's seconds per micro-batch
  double max_params = 0;
  std::vector<double> params;  ///< per stage
  /// saved bytes per sample of the micro-batches in flight (1F1B: stage g keeps at most
  /// p - g; GPipe: all S)
  std::vector<double> in_flight;
  std::vector<double> boundaries;  ///< elements per sample sent from stage g to g + 1
};

StagePlan plan_stages(const Workload& w, const Config& c, const PipelineShape& shape,
                      const std::vector<double>& own) {
  StagePlan plan;
  plan.ends = detail::balanced_partition(own, static_cast<std::size_t>(shape.stages));
  const auto layer = [&](std::size_t k) -> const model::LayerStats& {
    return w.model.layers[shape.first + k];
  };
  const double e = element_bytes(c), p = static_cast<double>(shape.stages);
  const double S = static_cast<double>(shape.segments);
  const auto saved_bytes = [e](const model::LayerStats& l) {
    return static_cast<double>(l.saved_elements) * e + static_cast<double>(l.saved_fixed_bytes);
  };
  const bool input_placeholder = shape.first == 1;
  std::size_t begin = 0;
  for (std::size_t g = 0; g < plan.ends.size(); ++g) {
    double seconds = 0, params = 0, saved = 0;
    if (g == 0 && input_placeholder) saved = saved_bytes(w.model.layers[0]);  // the input batch
    for (std::size_t k = begin; k < plan.ends[g]; ++k) {
      saved += saved_bytes(layer(k));
      seconds += own[k];
      params += static_cast<double>(layer(k).params);
    }
    plan.max_s = std::max(plan.max_s, seconds);
    plan.max_params = std::max(plan.max_params, params);
    plan.params.push_back(params);
    const double flight = c.policies.one_f_one_b ? std::min(S, p - static_cast<double>(g)) : S;
    // a later stage keeps what it received per micro-batch in flight until that
    // micro-batch's backward pass sends its gradient back (Megatron-LM's input_tensors):
    // the tensors crossing the cut before it, skip tensors included; its layers' saved set
    // counts only their own outputs (LayerStats::saved_elements)
    const double received = g > 0 ? static_cast<double>(layer(begin).crossing_elements) * e : 0;
    const double input = g > 0 ? received : static_cast<double>(layer(begin).input_elements) * e;
    // with recomputation: the stage's input per micro-batch in flight, and one
    // micro-batch's activations recomputed at a time (docs/cost-model.md §pipeline)
    // (stage 0's input is the batch, counted as the checkpoint instead)
    const double internal =
        g == 0 && input_placeholder ? saved - saved_bytes(w.model.layers[0]) : saved;
    plan.in_flight.push_back(c.recompute_activations ? flight * input + internal
                                                     : flight * (saved + received));
    // every tensor crossing the cut (docs/cost-model.md §data-pipeline: a_k includes the skip
    // tensors)
    if (g + 1 < plan.ends.size())
      plan.boundaries.push_back(static_cast<double>(layer(plan.ends[g]).crossing_elements));
    begin = plan.ends[g];
  }
  return plan;
}

// Each boundary its own tensor over its own link: stages g and g + 1 on consecutive GPUs,
// NVLink in a node, one GPU's share of the network across nodes. Each micro-batch crosses
// every boundary forward and back; only the fill and drain wait for them (sum over the
// boundaries), the S - 1 others overlap the next micro-batch's compute, the slowest
// boundary pacing them.
void boundary_transfers(const Workload& w, const Config& c, Builder& b, const PipelineShape& shape,
                        const std::vector<double>& boundaries) {
  const double p = static_cast<double>(shape.stages), S = static_cast<double>(shape.segments);
  const std::int64_t node = std::max<std::int64_t>(1, w.system.gpus_per_node);
  double fill = 0, slowest = 0;
  for (std::size_t g = 0; g < boundaries.size(); ++g) {
    // replica r's stage g on GPU r x stages + g: crossing for any replica counts
    bool across = false;
    for (std::int64_t r = 0; r < std::min(shape.replicas, node) && !across; ++r) {
      const std::int64_t at = r * shape.stages + static_cast<std::int64_t>(g);
      across = at / node != (at + 1) / node;
    }
    const auto link = across ? link_of(w, 2 * node, 1) : link_of(w, 2, 0);
    const double t_g = send_s(w, c, Exchange::Pipeline, link, across,
                              shape.batch / S * boundaries[g] * b.delta()) +
                       rule(c, Exchange::Pipeline).overhead_s;
    fill += t_g;
    slowest = std::max(slowest, t_g);
  }
  const double steady = (S - 1) * slowest;
  // each boundary sends forward and backward per micro-batch: 2 S calls on the slowest's path
  record(b, c, Exchange::Pipeline, "stage boundary send/recv", "p2p", "FB", shape.stages,
         2 * (fill + steady), 2 * (static_cast<double>(boundaries.size()) + S - 1));
  // a transfer hides behind one compute slot of its direction, no more
  const double slot = b.iteration_compute_s() / (p + S - 1), bwd = b.backward_share();
  if (c.policies.overlap_pipeline_transfers && rule(c, Exchange::Pipeline).overlapped)
    b.overlapped((S - 1) * (std::min(slowest, slot * (1 - bwd)) + std::min(slowest, slot * bwd)));
}

// HyPar-Flow: each stage's replicas allreduce its gradients; the stages' communicators run at
// once, sharing the nodes' adapters (one stage: one flat communicator, as data's). The
// gradients are accumulated over the micro-batches and reduced in buckets during the last
// one's backward pass (DDP's no_sync, Megatron's overlap_grad_reduce), one backward share of
// a slot (of the p + S - 1 per iteration); stage g's ends g such passes before stage 0's,
// the end of the iteration, and its exchange may run on until then. The stages exchange at
// once: the longest and the most exposed count.
void replica_exchange(const Workload& w, const Config& c, Builder& b, const PipelineShape& shape,
                      const std::vector<double>& params) {
  const double p = static_cast<double>(shape.stages), S = static_cast<double>(shape.segments);
  const std::int64_t flows = shape.stages == 1 ? 0 : std::min(shape.stages, w.system.gpus_per_node);
  const double iteration = b.iteration_compute_s();
  const double last_backward = iteration / (p + S - 1) * b.backward_share();
  double total = 0, exposed = 0, calls = 0;
  std::string_view label;
  for (std::size_t g = 0; g < params.size(); ++g) {
    const double lead = c.policies.overlap_gradients ? static_cast<double>(g) * last_backward : 0;
    const auto x = overlapped_exchange(
        c, params[g] * element_bytes(c), iteration - lead - last_backward, last_backward,
        [&](double n) {
          return allreduce_exchange(w, c, Exchange::Gradient, shape.replicas, c.gpus, n, flows);
        });
    if (x.total_s > total) label = x.label;
    calls = std::max(calls, x.calls);
    total = std::max(total, x.total_s);
    exposed = std::max(exposed, std::max(0.0, x.exposed_s - lead));
  }
  record(b, c, Exchange::Gradient, "gradient allreduce per stage across replicas", label, "GE",
         shape.replicas, total, calls);
  b.overlapped(total - exposed);
}

// The stage whose GPU holds the most: its activations of the micro-batches in flight (all S
// with GPipe, p - g on stage g with 1F1B; PipeDream-Flush, docs/cost-model.md §pipeline) with its
// own weights' model state. The first stages hold the activations, the last ones the
// weights (VGG16's classifier): the two maxima belong to no one GPU.
void heaviest_stage_memory(const Workload& w, const Config& c, const Totals& s, Builder& b,
                           const PipelineShape& shape, const StagePlan& plan) {
  const double micro_batch = shape.batch / static_cast<double>(shape.segments);
  std::size_t heaviest = 0;
  double most = -1;
  for (std::size_t g = 0; g < plan.params.size(); ++g) {
    const double bytes =
        micro_batch * plan.in_flight[g] + model_state_bytes(c, plan.params[g], shape.replicas);
    if (bytes > most) most = bytes, heaviest = g;
  }
  // as samples of the whole model's saved bytes
  const double e = element_bytes(c);
  const std::size_t at = element_size_index(e);
  const double whole = c.recompute_activations
                           ? s.recompute_saved[at] * e + s.recompute_saved_fixed_bytes[at]
                           : s.saved * e + s.saved_fixed_bytes;
  const double samples = whole > 0 ? micro_batch * plan.in_flight[heaviest] / whole : 0;
  // the replicas of a stage shard its weights; the stages' communicators share the NICs
  const std::int64_t flows = shape.stages == 1 ? 0 : std::min(shape.stages, w.system.gpus_per_node);
  zero3_parameter_allgather(b, c, plan.max_params, shape.replicas, link_of(w, c.gpus, flows));
  // one micro-batch at a time in its backward pass: its activation gradients at the
  // stage's own peak beyond its saved activations of that micro-batch, released as its
  // backward runs (docs/cost-model.md §memory; the whole model's credits releases on other GPUs)
  const std::size_t stage_begin = heaviest == 0 ? 0 : plan.ends[heaviest - 1];
  const double peak =
      gradient_peak_bytes(w.model, shape.first + stage_begin, shape.first + plan.ends[heaviest], e);
  memory_account(b, s, c, samples, plan.params[heaviest], shape.replicas,
                 GradientPeak{micro_batch, peak});
}

}  // namespace

void pipeline_of(const Workload& w, const Config& c, const Totals& s, Builder& b,
                 std::int64_t stages, std::int64_t replicas) {
  const auto shape = detail::pipeline_shape(w, c, b, stages, replicas);
  if (!shape) return;
  const double p = static_cast<double>(stages), S = static_cast<double>(shape->segments);
  // the stages balanced on the roofline's own per-layer times of a micro-batch
  std::vector<double> own;
  for (std::size_t k = 0; k < shape->times.size(); ++k)
    own.push_back(layer_s(w, c, shape->first + k, shape->batch / S, 1));
  const StagePlan plan = plan_stages(w, c, *shape, own);
  // the slowest stage's roofline time per micro-batch, (S + p - 1) slots per iteration for
  // GPipe and 1F1B alike (the bubble is the same; docs/cost-model.md §pipeline)
  b.compute(b.iterations() * (p + S - 1) * plan.max_s, b.iterations());
  if (stages > 1) boundary_transfers(w, c, b, *shape, plan.boundaries);
  if (replicas > 1) replica_exchange(w, c, b, *shape, plan.params);
  heaviest_stage_memory(w, c, s, b, *shape, plan);
}

void pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b, ComputeMemo*) {
  pipeline_of(w, c, s, b, c.gpus, 1);
}

}  // namespace paradise::strategy::extended
