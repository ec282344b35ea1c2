// Point-evaluation throughput of the sweep engine, and the rate of adding points to a sweep's
// summary (Google Benchmark). Reports points/s per core and the peak resident set size.
// Run: build/release/tests/bench/sweep_bench
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <vector>

#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/summary.hpp"

namespace {

using paradise::sweep::Evaluator;
using paradise::sweep::SweepSpec;

void run(benchmark::State& state, const SweepSpec& spec) {
  const Evaluator e(spec);
  const std::uint64_t n = e.grid().points();
  std::uint64_t i = 0;
  double sink = 0;
  for (auto _ : state) {
    sink += e.evaluate(i).epoch_time_s;
    i = i + 1 == n ? 0 : i + 1;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
}

using paradise::strategy::Variant;

// (a) data-parallel ResNet-50 on ImageNet: GPUs x batch
SweepSpec data_parallel_grid(Variant v) {
  SweepSpec s;
  s.models = {"resnet50"};
  s.datasets = {"imagenet"};
  s.systems = {"abci"};
  s.strategies = {"data"};
  for (std::int64_t g = 1; g <= 4096; g *= 2) s.gpus.push_back(g);
  for (std::int64_t b = 32; b <= 65536; b += 32) s.batch.push_back(b);
  s.variant = v;
  return s;
}

// (b) every strategy over several models and systems
SweepSpec mixed_grid(Variant v) {
  SweepSpec s;
  s.models = {"resnet50", "vgg16", "alexnet"};
  s.datasets = {"imagenet"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"serial",  "data",     "spatial",     "filter",
                  "channel", "pipeline", "data+filter", "data+spatial"};
  for (std::int64_t g = 1; g <= 1024; g *= 2) s.gpus.push_back(g);
  for (std::int64_t b = 64; b <= 4096; b *= 2) s.batch.push_back(b);
  s.variant = v;
  return s;
}

void DataParallelResnet50(benchmark::State& state) {
  run(state, data_parallel_grid(Variant::Paradl));
}
void MixedStrategies(benchmark::State& state) {
  run(state, mixed_grid(Variant::Paradl));
}
// the same two grids under the paradise variant (per-layer roofline at every point)
void DataParallelResnet50Paradise(benchmark::State& state) {
  run(state, data_parallel_grid(Variant::Paradise));
}
void MixedStrategiesParadise(benchmark::State& state) {
  run(state, mixed_grid(Variant::Paradise));
}
// the sweep default since issue 39: spatial points predicted with each split, the best kept
void MixedStrategiesParadiseAutoSplit(benchmark::State& state) {
  auto s = mixed_grid(Variant::Paradise);
  s.spatial_splits = {paradise::strategy::SpatialSplit::Auto};
  run(state, s);
}

// every shape searched (p2 = segments = auto, the split auto): each hybrid point predicted
// at every group size, each pipeline point at every micro-batch count
void MixedStrategiesParadiseAutoShapes(benchmark::State& state) {
  auto s = mixed_grid(Variant::Paradise);
  s.spatial_splits = {paradise::strategy::SpatialSplit::Auto};
  s.p2s = {paradise::strategy::kSearched};
  s.segment_counts = {paradise::strategy::kSearched};
  run(state, s);
}

// Adding evaluated points to a sweep's summary (counts, best point, Pareto fronts per
// model x dataset x batch), with the default three objectives (epoch time, GPUs, memory)
// or two (epoch time, GPUs): the points of the paradise mixed grid, evaluated beforehand.
void SummaryAdd(benchmark::State& state) {
  using paradise::sweep::Objective;
  const Evaluator e(mixed_grid(Variant::Paradise));
  const std::uint64_t n = e.grid().points();
  std::vector<paradise::sweep::PointResult> r;
  for (std::uint64_t i = 0; i < n; ++i) r.push_back(e.evaluate(i));
  paradise::sweep::ParetoSpec p;
  if (state.range(0) == 2) p.objectives = {Objective::EpochTime, Objective::Gpus};
  std::uint64_t front = 0;
  for (auto _ : state) {
    paradise::sweep::Summary s(e.grid(), p);
    for (std::uint64_t i = 0; i < n; ++i) s.add(i, r[i]);
    front = s.fronts().size();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["front_points"] = static_cast<double>(front);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
}

BENCHMARK(DataParallelResnet50);
BENCHMARK(MixedStrategies);
BENCHMARK(DataParallelResnet50Paradise);
BENCHMARK(MixedStrategiesParadise);
BENCHMARK(MixedStrategiesParadiseAutoSplit);
BENCHMARK(MixedStrategiesParadiseAutoShapes);
BENCHMARK(SummaryAdd)->Arg(2)->Arg(3);

}  // namespace

BENCHMARK_MAIN();
