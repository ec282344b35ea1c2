// ParaDL's per-epoch model (Kahira et al.; TR Table III, eqs. 3-22; cost-model-notes §1.4),
// one function per strategy. T_comp and T_comm are per epoch, memory per GPU.
#include "paradise/strategy/predict.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

#include "paradise/cost/collectives.hpp"
#include "strategy_detail.hpp"

namespace paradise::strategy {
namespace {

using model::Op;
using namespace detail;

// Allreduce of the whole gradient with the configured algorithm (ParaDL: ring, TR §IV-B).
double gradient_allreduce(const Workload& w, const Config& c, std::int64_t p, double bytes) {
  return cost::allreduce(c.gradient_allreduce, w.system.link_for(p), p, bytes);
}

// Serial (eq. 3): D sum(FW+BW); M = 2 delta (B sum(|x|+|y|) + sum|w|).
void serial(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  if (c.gpus != 1) return b.invalid("serial runs on exactly 1 GPU");
  const auto B = static_cast<double>(c.batch);
  const auto D = static_cast<double>(w.dataset_samples);
  if (paradise(c)) {
    b.compute(paradise_compute(w, c, D, B, 1), D / B);
    return paradise_memory(b, s, c, B, s.w, 1);
  }
  b.compute(D * s.t, D / B);
  b.memory("activations (x, y and their gradients)", 2 * b.delta() * B * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * s.w);
}

// The paradise variant of data parallelism: roofline compute of B/p samples per GPU, the
// gradient allreduce NCCL would pick, in buckets overlapped with the backward pass, and
// memory by component (model state sharded over the replicas per the ZeRO stage).
void paradise_data(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  const double p = static_cast<double>(c.gpus), B = static_cast<double>(c.batch);
  const double per_gpu = B / p, samples = std::ceil(static_cast<double>(w.dataset_samples) / p);
  b.compute(paradise_compute(w, c, samples, per_gpu, 1), samples / per_gpu);
  const double params = s.w;  // sum |w_l|: the model's parameters
  if (c.gpus > 1) {
    const double iteration = b.iteration_compute_s(), bwd = iteration * b.backward_share();
    const auto x = overlapped_allreduce(w, c, c.gpus, params * element_bytes(c), iteration - bwd,
                                        bwd, s.gradient_ready);
    b.comm("gradient allreduce", x.label, "GE", c.gpus, x.total_s);
    b.overlapped(x.total_s - x.exposed_s);
  }
  zero3_parameter_allgather(b, c, params, c.gpus, paradise_link(w, c.gpus, 0));
  paradise_memory(b, s, c, per_gpu, params, c.gpus);
}

// Data (eqs. 5-7): (D/p) sum(FW+BW); 2(p-1)(D/B)(a + (sum|w|/p) delta b);
// M = 2 delta ((B/p) sum(|x|+|y|) + sum|w|); valid p <= B.
void data(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  // an invalid configuration has no figures (Builder::finish): none are worked out
  if (c.batch % c.gpus != 0)
    return b.invalid("batch " + std::to_string(c.batch) + " is not divisible by " +
                     std::to_string(c.gpus) + " GPUs");
  if (paradise(c)) return paradise_data(w, c, s, b);
  const double p = static_cast<double>(c.gpus);
  // ParaDL's code: each GPU processes ceil(D/p) samples per epoch
  const double samples = std::ceil(static_cast<double>(w.dataset_samples) / p);
  b.compute(samples * s.t, samples * p / static_cast<double>(c.batch));
  b.comm("gradient allreduce", cost::allreduce_label(c.gradient_allreduce), "GE", c.gpus,
         gradient_allreduce(w, c, c.gpus, s.w * b.delta()));
  b.memory("activations (x, y and their gradients)",
           2 * b.delta() * static_cast<double>(c.batch) / p * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * s.w);
}

// Filter and channel (eqs. 15-17, §1.3): active layers' compute and weights split p ways;
// allgather of y forward and allreduce of dL/dx backward (filter), swapped for channel:
// 3(p-1)(D/B) sum_l (a + (B|y_l|/p) delta b) over the active layers.
void model_parallel(const Workload& w, const Config& c, const Totals& s, Builder& b, bool filter) {
  const double p = static_cast<double>(c.gpus);
  const double B = static_cast<double>(c.batch);
  std::int64_t limit = 0;
  int last_active = -1;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (!w.active[i]) continue;
    const auto& l = w.model.layers[i];
    last_active = static_cast<int>(i);
    // Channel parallelism starts at the second layer: the first one's input is the data
    // (TR §V-A: C = 3 for ImageNet; ParaDL's minChannel skips layer 0).
    const bool first = reads_the_data(w.model, i);
    if (!filter && first) continue;
    const std::int64_t n = filter ? l.output.channels : l.input.channels;
    limit = limit == 0 ? n : std::min(limit, n);
  }
  if (limit == 0) return b.invalid("no layer is marked parallel in the layer configuration");
  if (c.gpus > limit) {
    return b.invalid(std::to_string(c.gpus) + " GPUs > the smallest " +
                     (filter ? "filter" : "channel") + " count " + std::to_string(limit) +
                     " of the parallel layers");
  }
  const double D = static_cast<double>(w.dataset_samples);
  b.compute(paradise(c) ? paradise_compute(w, c, D, B, p) : D * (s.t - s.t_active + s.t_active / p),
            D / B);
  if (paradise(c)) {
    // NCCL's collectives on the group's link; the partial sums reduce-scattered (policy)
    const auto x = paradise_layer_collectives(w, c, c.gpus, B, filter);
    b.comm(filter ? "forward allgather of y" : "forward reduction of y's partial sums",
           filter ? "allgather/ring" : x.reduce_label, "FB", c.gpus,
           filter ? x.gather_s : x.reduce_s);
    b.comm(filter ? "backward reduction of dL/dx's partial sums" : "backward allgather of dL/dy",
           filter ? x.reduce_label : "allgather/ring", "FB", c.gpus,
           filter ? x.reduce_s : x.gather_s);
    return paradise_memory(b, s, c, B, s.w - s.w_active + s.w_active / p, 1);
  }
  system::Link link = w.system.link_for(c.gpus);
  if (c.paradl.filter_nvlink_latency) link.alpha_s = w.system.levels.front().latency_s;
  double forward = 0, backward = 0;
  // ParaDL's code sums over every parallel layer, the last included (Table III stops at G-1).
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    if (!w.active[i] || (c.fix_paradl_bugs && static_cast<int>(i) == last_active)) continue;
    const double bytes = B * static_cast<double>(w.model.layers[i].output_elements) * b.delta();
    forward += cost::allgather_ring(link, c.gpus, bytes);
    backward += cost::allreduce_ring(link, c.gpus, bytes);
  }
  b.comm(filter ? "forward allgather of y" : "forward allreduce of y",
         filter ? "allgather/ring" : "allreduce/ring", "FB", c.gpus, filter ? forward : backward);
  b.comm(filter ? "backward allreduce of dL/dx" : "backward allgather of dL/dx",
         filter ? "allreduce/ring" : "allgather/ring", "FB", c.gpus, filter ? backward : forward);
  // ParaDL's code divides the split weights by p twice (§1.9.1); fixed on request.
  const double weights = s.w - s.w_active + s.w_active / p;
  b.memory("activations (x, y and their gradients)", 2 * b.delta() * B * (s.x + s.y));
  b.memory("weights and gradients", 2 * b.delta() * (c.fix_paradl_bugs ? weights : weights / p));
}

// Contiguous partition of layer times into exactly `parts` non-empty groups that minimises
// the slowest group (bisection on the bottleneck with a greedy fill); returns group ends.
std::vector<std::size_t> balanced_partition(std::span<const double> t, std::size_t parts) {
  // Greedy fill under a cap; `ends` only when asked (the bisection just counts groups).
  const auto fill = [&](double cap, std::vector<std::size_t>* ends) {
    std::size_t groups = 1;
    double sum = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (sum + t[i] > cap && sum > 0) {
        if (ends) ends->push_back(i);
        ++groups;
        sum = 0;
      }
      sum += t[i];
    }
    if (ends) ends->push_back(t.size());
    return groups;
  };
  double lo = *std::max_element(t.begin(), t.end());
  double hi = std::accumulate(t.begin(), t.end(), 0.0);
  for (int it = 0; it < 100 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = (lo + hi) / 2;
    (fill(mid, nullptr) <= parts ? hi : lo) = mid;
  }
  std::vector<std::size_t> ends;
  fill(hi, &ends);
  // Fewer groups than stages: split the longest groups; this never raises the bottleneck.
  while (ends.size() < parts) {
    std::size_t best = 0, begin = 0, best_begin = 0, best_len = 0;
    for (std::size_t g = 0; g < ends.size(); ++g) {
      if (ends[g] - begin > best_len) {
        best = g;
        best_len = ends[g] - begin;
        best_begin = begin;
      }
      begin = ends[g];
    }
    ends.insert(ends.begin() + static_cast<std::ptrdiff_t>(best), best_begin + best_len / 2);
  }
  return ends;
}

// Layer (pipeline) parallelism over `stages` GPUs, `replicas` copies of the pipeline each
// taking batch / replicas samples (1 for ParaDL's pipeline; data+pipeline as HyPar-Flow,
// cost-model-notes §2). ParaDL's GPipe (TR eqs. 12-14, §1.4.1):
// T_comp = D (p+S-1)/S max_i T_{G_i}; T_comm = 2 (D (p+S-2)/B) max_i (a + (B/S)|y_{G_i}| delta b);
// M = 2 delta max_i sum_{l in g_i} (B(|x_l|+|y_l|) + |w_l|) (all S micro-batches kept, note P2).
void pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b, std::int64_t stages,
              std::int64_t replicas) {
  // the model's layers without the input placeholder (only ever the first layer)
  const std::size_t first = !w.model.layers.empty() && w.model.layers[0].op == Op::Input ? 1 : 0;
  const std::span<const double> t(w.layer_time_s.data() + first, w.layer_time_s.size() - first);
  const auto layer = [&](std::size_t k) -> const model::LayerStats& {
    return w.model.layers[first + k];
  };
  const std::int64_t segments = c.segments > 0 ? c.segments : stages;
  if (static_cast<std::size_t>(stages) > t.size()) {
    b.invalid(std::to_string(stages) + " pipeline stages > " + std::to_string(t.size()) +
              " layers");
    return;
  }
  if (c.batch % (replicas * segments) != 0) {
    b.invalid("batch " + std::to_string(c.batch) + " is not divisible by " +
              (replicas > 1 ? std::to_string(replicas) + " replicas x " : std::string()) +
              std::to_string(segments) + " micro-batches");
    return;
  }
  const double B = static_cast<double>(c.batch / replicas), S = static_cast<double>(segments);
  // ParaDL balances the stages on its times; the paradise variant on its own per-layer times
  std::vector<double> own;
  if (paradise(c)) {
    for (std::size_t k = 0; k < t.size(); ++k)
      own.push_back(paradise_layer_s(w, c, first + k, B / S, 1));
  }
  const auto ends = balanced_partition(paradise(c) ? std::span<const double>(own) : t,
                                       static_cast<std::size_t>(stages));
  const double p = static_cast<double>(stages), D = static_cast<double>(w.dataset_samples);
  double max_t = 0, max_mem = 0, max_boundary = 0, max_params = 0, max_paradise_s = 0;
  // paradise: each stage's saved activations x its micro-batches in flight, in per-sample
  // saved bytes (1F1B: stage g keeps at most p - g; GPipe: all S)
  const double e = element_bytes(c);
  std::vector<double> in_flight_of_stage;
  std::vector<double> boundaries;  // elements per sample sent from stage g to g + 1
  std::vector<double> params_of_stage;
  const bool recompute = paradise(c) && c.policies.recompute_activations;
  const auto saved_bytes = [e](const model::LayerStats& l) {
    return static_cast<double>(l.saved_elements) * e + static_cast<double>(l.saved_fixed_bytes);
  };
  std::size_t begin = 0;
  for (std::size_t g = 0; g < ends.size(); ++g) {
    double time = 0, mem = 0, paradise_s = 0, stage_params = 0, saved = 0;
    if (g == 0 && first == 1) saved = saved_bytes(w.model.layers[0]);  // the input batch
    for (std::size_t k = begin; k < ends[g]; ++k) {
      const auto& l = layer(k);
      time += t[k];
      saved += saved_bytes(l);
      if (paradise(c)) paradise_s += own[k];
      mem += static_cast<double>(l.params);
      stage_params += static_cast<double>(l.params);
      if (counts_for_memory(l))
        mem += B * static_cast<double>(l.input_elements + l.output_elements);
    }
    max_t = std::max(max_t, time);
    max_mem = std::max(max_mem, mem);
    max_paradise_s = std::max(max_paradise_s, paradise_s);
    max_params = std::max(max_params, stage_params);
    params_of_stage.push_back(stage_params);
    const double flight = c.policies.one_f_one_b ? std::min(S, p - static_cast<double>(g)) : S;
    // a later stage keeps what it received per micro-batch in flight until that
    // micro-batch's backward pass sends its gradient back (Megatron-LM's input_tensors):
    // the tensors crossing the cut before it, skip tensors included; its layers' saved set
    // counts only their own outputs (LayerStats::saved_elements)
    const double received = g > 0 ? static_cast<double>(layer(begin).crossing_elements) * e : 0;
    const double input = g > 0 ? received : static_cast<double>(layer(begin).input_elements) * e;
    // with recomputation: the stage's input per micro-batch in flight, and one
    // micro-batch's activations recomputed at a time (cost-model-notes §6.1)
    // (stage 0's input is the batch, counted as the checkpoint instead)
    const double internal = g == 0 && first == 1 ? saved - saved_bytes(w.model.layers[0]) : saved;
    const double in_flight = recompute ? flight * input + internal : flight * (saved + received);
    in_flight_of_stage.push_back(in_flight);
    if (g + 1 < ends.size()) {
      // ParaDL: the last layer's output; paradise: every tensor crossing the cut
      // (cost-model-notes §2: a_k includes the skip tensors crossing it)
      max_boundary =
          std::max(max_boundary, static_cast<double>(layer(ends[g] - 1).output_elements));
      boundaries.push_back(static_cast<double>(layer(ends[g]).crossing_elements));
    }
    begin = ends[g];
  }
  // paradise: the slowest stage's roofline time per micro-batch, (S + p - 1) slots per
  // iteration for GPipe and 1F1B alike (the bubble is the same; cost-model-notes §6.1)
  b.compute(
      paradise(c) ? b.iterations() * (p + S - 1) * max_paradise_s : D * (p + S - 1) / S * max_t,
      paradise(c) ? b.iterations() : D / B);
  if (stages > 1 && paradise(c)) {
    // each boundary its own tensor over its own link: stages g and g + 1 on consecutive GPUs,
    // NVLink in a node, one GPU's share of the network across nodes. Each micro-batch crosses
    // every boundary forward and back; only the fill and drain wait for them (sum over the
    // boundaries), the S - 1 others overlap the next micro-batch's compute, the slowest
    // boundary pacing them.
    const std::int64_t node = std::max<std::int64_t>(1, w.system.gpus_per_node);
    double fill = 0, slowest = 0;
    for (std::size_t g = 0; g < boundaries.size(); ++g) {
      // replica r's stage g on GPU r x stages + g: crossing for any replica counts
      bool across = false;
      for (std::int64_t r = 0; r < std::min(replicas, node) && !across; ++r) {
        const std::int64_t at = r * stages + static_cast<std::int64_t>(g);
        across = at / node != (at + 1) / node;
      }
      const auto link = across ? paradise_link(w, 2 * node, 1) : paradise_link(w, 2, 0);
      const double t_g = cost::p2p(link, B / S * boundaries[g] * b.delta());
      fill += t_g;
      slowest = std::max(slowest, t_g);
    }
    const double steady = (S - 1) * slowest;
    b.comm("stage boundary send/recv", "p2p", "FB", stages, 2 * (fill + steady));
    // a transfer hides behind one compute slot of its direction, no more
    const double slot = b.iteration_compute_s() / (p + S - 1), bwd = b.backward_share();
    if (c.policies.overlap_pipeline_transfers)
      b.overlapped((S - 1) * (std::min(slowest, slot * (1 - bwd)) + std::min(slowest, slot * bwd)));
  } else if (stages > 1) {
    const double transfer = cost::p2p(w.system.link_for(stages), B / S * max_boundary * b.delta());
    const double per_epoch = 2 * (D * (p + S - 2) / static_cast<double>(c.batch)) * transfer;
    b.comm("stage boundary send/recv", "p2p", "FB", stages, per_epoch / b.iterations());
  }
  if (paradise(c) && replicas > 1) {
    // HyPar-Flow: each stage's replicas allreduce its gradients; the stages' communicators
    // run at once, sharing the nodes' adapters (one stage: one flat communicator, as data's)
    const std::int64_t flows = stages == 1 ? 0 : std::min(stages, w.system.gpus_per_node);
    // the gradients are accumulated over the micro-batches and reduced in buckets during the
    // last one's backward pass (DDP's no_sync, Megatron's overlap_grad_reduce), one backward
    // share of a slot (of the p + S - 1 per iteration); stage g's ends g such passes before
    // stage 0's, the end of the iteration, and its exchange may run on until then. The
    // stages exchange at once: the longest and the most exposed count.
    const double iteration = b.iteration_compute_s();
    const double last_backward = iteration / (p + S - 1) * b.backward_share();
    double total = 0, exposed = 0;
    std::string_view label;
    for (std::size_t g = 0; g < params_of_stage.size(); ++g) {
      const double lead = c.policies.overlap_gradients ? static_cast<double>(g) * last_backward : 0;
      const auto x = overlapped_exchange(
          c, params_of_stage[g] * element_bytes(c), iteration - lead - last_backward, last_backward,
          [&](double n) { return paradise_allreduce(w, c, replicas, c.gpus, n, flows); });
      if (x.total_s > total) label = x.label;
      total = std::max(total, x.total_s);
      exposed = std::max(exposed, std::max(0.0, x.exposed_s - lead));
    }
    b.comm("gradient allreduce per stage across replicas", label, "GE", replicas, total);
    b.overlapped(total - exposed);
  }
  if (paradise(c)) {
    // the stage whose GPU holds the most: its activations of the micro-batches in flight
    // (all S with GPipe, p - g on stage g with 1F1B; PipeDream-Flush, cost-model-notes §6.1)
    // with its own weights' model state. The first stages hold the activations, the last
    // ones the weights (VGG16's classifier): the two maxima belong to no one GPU.
    std::size_t heaviest = 0;
    double most = -1;
    for (std::size_t g = 0; g < params_of_stage.size(); ++g) {
      const double bytes =
          B / S * in_flight_of_stage[g] + model_state_bytes(c, params_of_stage[g], replicas);
      if (bytes > most) most = bytes, heaviest = g;
    }
    // as samples of the whole model's saved bytes
    const std::size_t at = element_size_index(e);
    const double whole = recompute ? s.recompute_saved[at] * e + s.recompute_saved_fixed_bytes[at]
                                   : s.saved * e + s.saved_fixed_bytes;
    const double samples = whole > 0 ? B / S * in_flight_of_stage[heaviest] / whole : 0;
    // the replicas of a stage shard its weights; the stages' communicators share the NICs
    zero3_parameter_allgather(
        b, c, max_params, replicas,
        paradise_link(w, c.gpus, stages == 1 ? 0 : std::min(stages, w.system.gpus_per_node)));
    // one micro-batch at a time in its backward pass: its activation gradients at the
    // stage's own peak beyond its saved activations of that micro-batch, released as its
    // backward runs (cost-model-notes §6.2; the whole model's credits releases on other GPUs)
    const std::size_t stage_begin = heaviest == 0 ? 0 : ends[heaviest - 1];
    const double peak =
        gradient_peak_bytes(w.model, first + stage_begin, first + ends[heaviest], e);
    return paradise_memory(b, s, c, samples, params_of_stage[heaviest], replicas,
                           GradientPeak{B / S, peak});
  }
  b.memory("largest stage: activations, weights and gradients", 2 * b.delta() * max_mem);
}

// data+pipeline (HyPar-Flow, cost-model-notes §2): p = partitions x replicas, a replica's
// partitions on p2 consecutive GPUs (default: one node). Modelled by the paradise variant.
void data_pipeline(const Workload& w, const Config& c, const Totals& s, Builder& b) {
  if (!paradise(c)) return b.invalid("data+pipeline is modelled by the paradise variant only");
  const std::int64_t stages = c.p2 > 0 ? c.p2 : w.system.gpus_per_node;
  if (c.gpus % stages != 0)
    return b.invalid(std::to_string(c.gpus) + " GPUs are not a multiple of " +
                     std::to_string(stages) + " pipeline stages");
  pipeline(w, c, s, b, stages, c.gpus / stages);
}

}  // namespace

Prediction predict(const Workload& w, const Config& c) {
  Prediction p;
  predict_into(w, sum_layers(w), c, p);
  return p;
}

void predict_into(const Workload& w, const LayerSums& s, const Config& c, Prediction& out) {
  Builder b(w, s, c, out);
  if (c.gpus < 1) b.invalid("GPU count must be >= 1");
  if (c.batch < 1) b.invalid("batch must be >= 1");
  if (c.gpus > w.system.max_gpus)
    b.invalid("system '" + w.system.name + "' has " + std::to_string(w.system.max_gpus) + " GPUs");
  if (c.batch > w.dataset_samples)
    b.invalid("batch " + std::to_string(c.batch) + " > the dataset's " +
              std::to_string(w.dataset_samples) + " samples (an epoch is less than one batch)");
  // nothing to work out for a configuration already invalid (nor a factorisation of 10^18)
  if (out.status == Status::Invalid) return b.finish();
  switch (c.kind) {
    case Kind::Serial:
      serial(w, c, s, b);
      break;
    case Kind::Data:
      data(w, c, s, b);
      break;
    case Kind::Filter:
      model_parallel(w, c, s, b, true);
      break;
    case Kind::Channel:
      model_parallel(w, c, s, b, false);
      break;
    case Kind::Pipeline:
      pipeline(w, c, s, b, c.gpus, 1);
      break;
    case Kind::DataPipeline:
      data_pipeline(w, c, s, b);
      break;
    case Kind::Daso:
      daso(w, c, s, b);
      break;
    case Kind::Spatial:
      spatial(w, c, s, b);
      break;
    case Kind::DataFilter:
      data_filter(w, c, s, b);
      break;
    case Kind::DataSpatial:
      data_spatial(w, c, s, b);
      break;
  }
  b.finish();
}

std::string compute_source(const Workload& w, const Config& c) {
  if (c.variant != Variant::Paradise || !c.policies.roofline_compute) return w.time_source;
  if (w.measured_time)
    return w.time_source + "; a split layer scaled by the roofline's ratio split / whole";
  // the peak used: a GPU without a tf32 or fp16 peak computes at its fp32 one (peak_flops)
  const auto& g = w.system.gpu;
  const bool own = c.precision == Precision::Fp32 ||
                   (c.precision == Precision::Tf32 ? g.peak_tf32_flops : g.peak_fp16_flops) > 0;
  const std::string peak =
      own ? std::string(precision_name(c.precision)) + " peak"
          : "fp32 peak (it has no " + std::string(precision_name(c.precision)) + " one)";
  return "roofline per layer: FLOPs at the GPU's " + peak +
         " x GEMM efficiency, or bytes at its memory bandwidth (no measured time given)";
}

}  // namespace paradise::strategy
