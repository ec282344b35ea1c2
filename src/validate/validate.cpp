#include "paradise/validate/validate.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "paradise/core/error.hpp"
#include "paradise/core/table.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/strategy/predict.hpp"

namespace paradise::validate {
namespace {

std::string seconds_text(double s) {
  return s >= 1 ? fixed(s, 3) + " s" : fixed(s * 1e3, 3) + " ms";
}

std::string ratio_text(double measured, double projected) {
  if (projected <= 0) return "the projection is 0";
  return "measured " + fixed_or_exponent(measured / projected, 2) + "x the projection";
}

/// What to check when `part` is slower / larger (`above`) or faster / smaller than projected.
std::string hint(const std::string& part, bool above, strategy::Variant variant) {
  if (part == "compute")
    return above ? "kernel efficiency (cuDNN algorithm choice, tensor cores, per-GPU work too "
                   "small to fill the GPU), the input pipeline (host data loading and decoding), "
                   "and the calibration time per sample"
                 : "the calibration time per sample or layer times (measured on another GPU, "
                   "precision or batch?), the model's FLOP count and input size";
  if (part == "input")
    return above ? "a slower input than the model's: time the loader alone (samples per second "
                   "of one loading rank, an implementation profile's loader_samples_per_s) and "
                   "the node's decoding and reading (a system file's [input] rates)"
                 : "a faster loader or input pipeline than the profile's loader_samples_per_s "
                   "or the system's [input] rates (docs/implementations.md, "
                   "docs/gpu-profiles.md)";
  if (part == "framework")
    return std::string(above ? "a slower" : "a leaner") +
           " training loop than the profile's: time a step at two batch sizes, and put the "
           "intercept in an implementation profile's step_overhead_us (docs/implementations.md)";
  if (part == "communication")
    return above ? "network congestion and placement (GPUs spread over more switches or racks "
                   "than the system's levels assume), the NCCL algorithm and protocol "
                   "(NCCL_DEBUG=INFO, NCCL_ALGO), GPUDirect RDMA, and the system file's "
                   "bandwidth and latency (paradise calibrate with nccl-tests)"
                 : std::string(variant == strategy::Variant::Paradl
                                   ? "overlap with the backward pass or in-network reduction "
                                     "the model does not have (try --variant paradise)"
                                   : "more overlap with the backward pass than the model's "
                                     "bucketed one, or in-network reduction (SHARP)") +
                       ", or a pessimistic system file (paradise calibrate with nccl-tests)";
  return above ? "allocator fragmentation (reserved vs allocated memory), convolution workspace, "
                 "NCCL buffers and the framework's context"
               : "activation checkpointing or in-place operations in the run, or a measurement "
                 "of allocated rather than reserved memory";
}

std::string workload_key(const MeasuredRun& r) {
  return r.model + '\n' + r.dataset + '\n' + r.system + '\n' + r.layer_config + '\n' +
         r.layer_times + '\n' + std::to_string(r.time_per_sample_s);
}

// A row's workload could not be built (`error`): the error again, naming the column at
// fault, found by building without the row's files, then with its layer config only.
[[noreturn]] void fail_workload(const MeasuredRun& run, const strategy::WorkloadSpec& spec,
                                const InputError& error) {
  const Origin at{run.file, run.line};
  strategy::WorkloadSpec plain = spec;
  plain.layer_config.clear();
  plain.layer_times.clear();
  plain.time_per_sample_s = 0;
  try {
    strategy::make_workload(plain);
  } catch (const InputError& e) {
    fail_input(at, "columns model, dataset", run.model + ", " + run.dataset, e.what());
  }
  if (!run.layer_config.empty()) {
    plain.layer_config = run.layer_config;
    try {
      strategy::make_workload(plain);
    } catch (const InputError& e) {
      fail_input(at, "column layer_config", run.layer_config, e.what());
    }
  }
  if (!run.layer_times.empty()) fail_input(at, "column layer_times", run.layer_times, error.what());
  fail_input(at, "column time_per_sample", fixed(run.time_per_sample_s, 6), error.what());
}

}  // namespace

double accuracy(double projected, double measured) {
  // ParaDL's accuracy metric (docs/cost-model.md §ref-accuracy): 1 - |projected - measured| /
  // measured
  return 1 - std::abs(projected - measured) / measured;
}

RankGroup concordance(const std::vector<double>& measured, const std::vector<double>& projected,
                      const std::vector<std::string>& labels) {
  RankGroup g;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    for (std::size_t j = i + 1; j < measured.size(); ++j) {
      if (!labels.empty() && labels[i] == labels[j]) continue;
      ++g.pairs;
      const double dm = measured[i] - measured[j], dp = projected[i] - projected[j];
      if (dm == 0 || dp == 0) {
        ++g.tied;
      } else if ((dm > 0) == (dp > 0)) {
        ++g.concordant;
      } else {
        ++g.discordant;
      }
    }
  }
  // Kendall's tau-a (Kendall 1938): (concordant - discordant) / pairs
  if (g.pairs > 0)
    g.kendall_tau = static_cast<double>(g.concordant - g.discordant) / static_cast<double>(g.pairs);
  return g;
}

Anomaly diagnose(const MeasuredRun& run, const RowResult& row, strategy::Variant variant) {
  struct Part {
    std::string name;
    std::optional<double> measured;
    double projected;
  };
  const std::vector<Part> parts = {
      {"compute", run.compute_s, row.projected_compute_s.value_or(0)},
      {"communication", run.communication_s, row.projected_communication_s.value_or(0)},
      {"memory", run.memory_bytes, row.projected_memory_bytes.value_or(0)}};
  const Part* worst = nullptr;
  double worst_divergence = -1;
  for (const auto& p : parts) {
    if (!p.measured) continue;
    const double scale = std::max(*p.measured, p.projected);
    // symmetric relative divergence |m - p| / max(m, p), in [0, 1]: a part measured as 0
    // but projected above 0 diverges fully
    const double d = scale > 0 ? std::abs(*p.measured - p.projected) / scale : 0;
    if (d > worst_divergence) {
      worst = &p;
      worst_divergence = d;
    }
  }
  const std::string per = " per " + row.basis;
  Anomaly a;
  if (worst) {
    const bool memory = worst->name == "memory";
    const auto show = [&](double v) { return memory ? human_bytes(v) : seconds_text(v); };
    a.part = worst->name;
    a.cause = worst->name + " diverges most: measured " + show(*worst->measured) +
              (memory ? "" : per) + ", projected " + show(worst->projected) + " (" +
              ratio_text(*worst->measured, worst->projected) + ")";
    a.hint = hint(worst->name, *worst->measured > worst->projected, variant);
    return a;
  }
  const double compute = row.projected_compute_s.value_or(0);
  const double comm = row.projected_communication_s.value_or(0);
  const double framework = row.projected_step_overhead_s.value_or(0);
  const double input = row.projected_input_wait_s.value_or(0);
  const double total = compute + comm + framework + input;
  const double largest = std::max({compute, comm, framework, input});
  a.part = compute == largest ? "compute"
           : comm == largest  ? "communication"
           : input == largest ? "input"
                              : "framework";
  const double share = total > 0 ? 100 * largest / total : 0;
  a.cause = "time " + ratio_text(row.measured_s.value_or(0), row.projected_s.value_or(0)) +
            "; no measured parts in the row, and " + a.part + " is " + fixed(share, 1) +
            "% of the projected compute + communication + framework + input wait per step (" +
            seconds_text(compute) + " compute, " + seconds_text(comm) + " communication, " +
            seconds_text(framework) + " framework, " + seconds_text(input) + " input wait" + per +
            ", before any overlap)";
  a.hint = hint(a.part, row.measured_s.value_or(0) > row.projected_s.value_or(0), variant);
  return a;
}

Anomaly measured_but_out_of_memory(const MeasuredRun& run, const RowResult& row) {
  Anomaly a;
  a.part = "memory";
  a.cause = "the run was measured, but the model says it does not fit (" + row.reason + ")" +
            (run.memory_bytes ? "; measured " + human_bytes(*run.memory_bytes) + " per GPU" : "") +
            "; time " + ratio_text(row.measured_s.value_or(0), row.projected_s.value_or(0));
  a.hint = "the memory model overestimates this run: " +
           hint("memory", false, strategy::Variant::Paradise) +
           "; or a device-memory margin in the system file larger than the run needed";
  return a;
}

namespace {

// The profile a row is predicted with: Options::profile, else its cell's or Options' name,
// read once into `loaded` (keyed by the name or path as written; rows view the names).
const implementation::Implementation& profile_of(
    const MeasuredRun& run, const Options& o,
    std::map<std::string, implementation::Implementation>& loaded) {
  if (o.profile) return *o.profile;
  const std::string& named = run.implementation.empty() ? o.implementation : run.implementation;
  auto it = loaded.find(named);
  if (it == loaded.end())
    it = loaded.emplace(named, implementation::find_implementation(named)).first;
  return it->second;
}

}  // namespace

std::vector<RowResult> evaluate(const std::vector<MeasuredRun>& runs, const Options& o) {
  std::map<std::string, strategy::Workload> own;
  auto& workloads = o.workloads ? *o.workloads : own;
  std::map<std::string, implementation::Implementation> implementations;  // profile_of's
  std::vector<RowResult> out;
  for (const auto& run : runs) {
    RowResult& r = out.emplace_back();
    r.run = &run;
    r.basis = run.iteration_s ? "iteration" : "epoch";
    if (o.variant == strategy::Variant::Paradl && run.precision_kind != strategy::Precision::Fp32) {
      r.status = "error";
      r.reason = "the paradl variant models fp32 only (precision '" + run.precision +
                 "'): use --variant paradise";
      continue;
    }
    const std::string key = workload_key(run);
    auto it = workloads.find(key);
    if (it == workloads.end()) {
      strategy::WorkloadSpec spec;
      spec.model = run.model;
      spec.dataset = run.dataset;
      spec.system = run.system;
      spec.layer_config = run.layer_config;
      spec.layer_times = run.layer_times;
      spec.time_per_sample_s = run.time_per_sample_s;
      try {
        it = workloads.emplace(key, strategy::make_workload(spec)).first;
      } catch (const InputError& e) {
        fail_workload(run, spec, e);
      }
    }
    // A measured peak well beyond the device is a wrong unit or a wrong system, not a
    // result: the catalog states capacities in decimal GB (a "16 GB" V100 holds 16 GiB,
    // 7% more), so only 1.25x the stated capacity is refused.
    const double device = it->second.system.gpu.memory_bytes;
    if (run.memory_bytes && *run.memory_bytes > 1.25 * device)
      fail_input({run.file, run.line}, "column measured_memory_bytes", fixed(*run.memory_bytes, 0),
                 "more than 1.25x the " + human_bytes(device) + " of a GPU of system '" +
                     run.system + "' (bytes, not MB?)");
    if (const auto why = strategy::precision_mismatch(it->second, run.precision_kind); !why.empty())
      fail_input({run.file, run.line}, "column precision", run.precision,
                 "its layer_times file: " + why + " (give the run's measured layer times)");
    strategy::Config c;
    c.kind = run.kind;
    c.gpus = run.gpus;
    c.batch = run.batch;
    c.p2 = run.p2;
    c.variant = o.variant;
    c.precision = run.precision_kind;
    if (o.variant == strategy::Variant::Paradise) {
      const implementation::Implementation& used = profile_of(run, o, implementations);
      c.implementation = used.profile;
      c.implementation_name = used.name;
      r.implementation = used.name;
      if (const auto why = strategy::host_link_missing(c, it->second.system); !why.empty())
        fail_input({run.file, run.line}, "column implementation", used.name, why);
    } else if (!run.implementation.empty()) {
      fail_input({run.file, run.line}, "column implementation", run.implementation,
                 "the paradl variant is ParaDL's formulas, with no implementation profile "
                 "(use --variant paradise, or leave the cell empty)");
    }
    const strategy::Prediction p = strategy::predict(it->second, c);
    r.status = std::string(strategy::status_name(p.status));
    r.reason = p.reason;
    if (p.status == strategy::Status::Invalid || p.iterations_per_epoch < 1) continue;
    const double iterations = static_cast<double>(p.iterations_per_epoch);
    const bool per_iteration = r.basis == "iteration";
    const double scale = per_iteration ? 1 / iterations : 1;
    r.projected_s = per_iteration ? p.iteration_time_s : p.epoch_time_s;
    r.measured_s = per_iteration ? *run.iteration_s : *run.epoch_s;
    // per iteration: one iteration of the whole batch, as iteration_time_s is (the epoch's
    // mean compute is lower when the last batch is partial), so the parts add up to it
    r.projected_compute_s = per_iteration ? p.iteration_compute_s : p.epoch_compute_s;
    r.projected_communication_s = p.epoch_communication_s * scale;
    r.projected_overlapped_s = p.epoch_overlapped_s * scale;
    r.projected_input_wait_s = p.epoch_input_s * scale;
    r.projected_step_overhead_s = p.epoch_step_overhead_s * scale;
    r.projected_memory_bytes = p.memory_per_gpu_bytes;
    r.accuracy = accuracy(*r.projected_s, *r.measured_s);
    r.relative_error = (*r.projected_s - *r.measured_s) / *r.measured_s;
    r.projected_epoch_s = p.epoch_time_s;
    r.measured_epoch_s = run.epoch_s ? *run.epoch_s : *run.iteration_s * iterations;
    if (std::abs(*r.relative_error) > o.threshold) r.anomaly = diagnose(run, r, o.variant);
    if (p.status == strategy::Status::OutOfMemory) r.anomaly = measured_but_out_of_memory(run, r);
  }
  return out;
}

Summary summarize(const std::vector<RowResult>& rows) {
  Summary s;
  s.rows = static_cast<std::int64_t>(rows.size());
  double sum = 0;
  std::vector<std::pair<std::string, std::pair<double, int>>> by_strategy;
  for (const auto& r : rows) {
    if (r.anomaly) ++s.anomalies;
    if (!r.accuracy) continue;
    ++s.compared;
    sum += *r.accuracy;
    auto it = std::find_if(by_strategy.begin(), by_strategy.end(),
                           [&](const auto& e) { return e.first == r.run->strategy; });
    if (it == by_strategy.end()) it = by_strategy.insert(by_strategy.end(), {r.run->strategy, {}});
    it->second.first += *r.accuracy;
    ++it->second.second;
  }
  if (s.compared > 0) s.mean_accuracy = sum / static_cast<double>(s.compared);
  for (const auto& [name, acc] : by_strategy)
    s.per_strategy.emplace_back(name, acc.first / acc.second);

  // Rank agreement: groups of the same (model, dataset, system, GPUs), in order of appearance.
  std::vector<std::vector<const RowResult*>> groups;
  for (const auto& r : rows) {
    if (!r.measured_epoch_s || !r.projected_epoch_s) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      const MeasuredRun& a = *g.front()->run;
      return a.model == r.run->model && a.dataset == r.run->dataset && a.system == r.run->system &&
             a.gpus == r.run->gpus;
    });
    if (it == groups.end()) it = groups.insert(groups.end(), std::vector<const RowResult*>{});
    it->push_back(&r);
  }
  RankAgreement& ra = s.rank_agreement;
  for (auto& g : groups) {
    std::sort(g.begin(), g.end(), [](const RowResult* a, const RowResult* b) {
      return *a->measured_epoch_s < *b->measured_epoch_s;
    });
    std::vector<double> m, p;
    std::vector<std::string> labels;
    for (const auto* r : g) {
      m.push_back(*r->measured_epoch_s);
      p.push_back(*r->projected_epoch_s);
      labels.push_back(r->run->strategy);
    }
    RankGroup rg = concordance(m, p, labels);
    if (rg.pairs == 0) continue;
    const MeasuredRun& first = *g.front()->run;
    rg.model = first.model;
    rg.dataset = first.dataset;
    rg.system = first.system;
    rg.gpus = first.gpus;
    rg.strategies = labels;
    ra.pairs += rg.pairs;
    ra.concordant += rg.concordant;
    ra.discordant += rg.discordant;
    ra.tied += rg.tied;
    ra.groups.push_back(std::move(rg));
  }
  if (ra.pairs > 0)
    ra.kendall_tau =
        static_cast<double>(ra.concordant - ra.discordant) / static_cast<double>(ra.pairs);
  if (ra.concordant + ra.discordant > 0)
    ra.fraction_concordant =
        static_cast<double>(ra.concordant) / static_cast<double>(ra.concordant + ra.discordant);
  return s;
}

}  // namespace paradise::validate
