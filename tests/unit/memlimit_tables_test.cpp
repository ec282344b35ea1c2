// sweep::MemlimitSearch (the memory-limit tables of a sweep) against brute-force scans:
// every entry's point is rebuilt from the table's own axes (tables() metadata) and the
// sweep spec's values, its workload made from the names, and every batch, side or GPU
// count of the range predicted one by one with strategy::predict.
#include "paradise/sweep/memlimit_tables.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "paradise/core/error.hpp"
#include "paradise/strategy/predict.hpp"
#include "paradise/sweep/evaluator.hpp"
#include "paradise/sweep/memlimit.hpp"

namespace paradise::sweep {
namespace {

using strategy::Status;

// cosmoflow on its dataset at two cube sides, and resnet50, which cannot take 3-D samples
// (every entry of its workloads is 0, -1 in fewest_gpus: no side can be taken). GPU counts out of
// order: the fewest-GPUs search takes them ascending. 2 x 1 x 2 x 1 x 4 x 4 x 2 = 128 points.
SweepSpec small_spec() {
  SweepSpec s;
  s.models = {"cosmoflow", "resnet50"};
  s.datasets = {"cosmoflow"};
  s.resolution = {128, 256};
  s.systems = {"abci"};
  s.strategies = {"data", "data+spatial", "spatial", "filter"};
  s.gpus = {8, 1, 32, 4};
  s.batch = {4, 64};
  return s;
}

// A table entry as named coordinates: entry e is row-major over the table's axes, the last
// fastest. "side" is the table's own axis (a value, not a grid coordinate).
struct Entry {
  std::map<std::string, std::uint64_t> coord;  // grid axes present in the table
  std::int64_t side = 0;
};

Entry entry_of(const MemlimitTable& t, std::uint64_t e) {
  Entry out;
  for (std::size_t j = t.axes.size(); j-- > 0;) {
    const std::uint64_t c = e % t.axes[j].size();
    e /= t.axes[j].size();
    if (t.axes[j].name == "side") {
      out.side = t.axes[j].values[c];
    } else {
      out.coord[t.axes[j].name] = c;
    }
  }
  return out;
}

// The workloads, made from the names as the sweep spec describes them (the dataset's sample
// re-sized to `side`, 0: as it is), cached; nullopt when the model cannot take the data.
class Workloads {
 public:
  const strategy::Workload* get(const std::string& model, const std::string& dataset,
                                const std::string& system, std::int64_t side) {
    const auto key = std::tuple{model, dataset, system, side};
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      const ResolutionFamily f{{model, dataset, system, "", 0}};
      std::optional<strategy::Workload> w;
      if (side > 0) {
        w = f.at(side);
      } else {
        w = strategy::make_workload(f.spec);
      }
      it = cache_.emplace(key, std::move(w)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

 private:
  std::map<std::tuple<std::string, std::string, std::string, std::int64_t>,
           std::optional<strategy::Workload>>
      cache_;
};

strategy::Config config_of(const SweepSpec& s, const Entry& x) {
  strategy::Config c;
  c.kind = *strategy::kind_from_name(s.strategies[x.coord.at("strategy")]);
  c.variant = s.variant;
  if (x.coord.count("gpus")) c.gpus = s.gpus[x.coord.at("gpus")];
  if (x.coord.count("batch")) c.batch = s.batch[x.coord.at("batch")];
  return c;
}

bool ok(const strategy::Workload& w, const strategy::Config& c) {
  return strategy::predict(w, c).status == Status::Ok;
}

// Largest batch: every batch of [lo, hi], the largest that is ok; 0 when none, -1 when the
// model cannot take the entry's data (all its points are invalid: not "nothing fits").
// *at_end: it is a lower bound, every later batch of the range being one the strategy cannot
// run (invalid, not out of memory: the search looked at no larger batch it could run).
std::int64_t brute_batch(const SweepSpec& s, const MemlimitSpec& m, const Entry& x, Workloads& ws,
                         bool* at_end) {
  *at_end = false;
  const std::int64_t res = x.coord.count("resolution") ? s.resolution[x.coord.at("resolution")] : 0;
  const auto* w = ws.get(s.models[x.coord.at("model")], s.datasets[x.coord.at("dataset")],
                         s.systems[x.coord.at("system")], res);
  if (!w) return -1;
  strategy::Config c = config_of(s, x);
  std::int64_t best = 0, last_runnable = 0;
  for (std::int64_t b = m.batch_lo; b <= m.batch_hi; ++b) {
    c.batch = b;
    const Status st = strategy::predict(*w, c).status;
    if (st == Status::Ok) best = b;
    if (st != Status::Invalid) last_runnable = b;
  }
  *at_end = best > 0 && best == last_runnable;
  return best;
}

// Largest resolution: every side lo, lo + step, ... <= hi, the largest that is ok with the
// entry's strategy, GPUs and batch; 0 when none, -1 when the model takes no side of the
// range (a 2-D model on 3-D data).
// *at_end: it is a lower bound, no later side of the range being one the model takes (the
// ranges here stay below the supported sizes, where a side is not taken either).
std::int64_t brute_resolution(const SweepSpec& s, const MemlimitSpec& m, const Entry& x,
                              Workloads& ws, bool* at_end) {
  const strategy::Config c = config_of(s, x);
  std::int64_t best = -1, last_taken = 0;
  for (std::int64_t side = m.resolution_lo; side <= m.resolution_hi; side += m.resolution_step) {
    const auto* w = ws.get(s.models[x.coord.at("model")], s.datasets[x.coord.at("dataset")],
                           s.systems[x.coord.at("system")], side);
    if (w) best = std::max<std::int64_t>(best, ok(*w, c) ? side : 0);
    if (w) last_taken = side;
  }
  *at_end = best > 0 && best == last_taken;
  return best;
}

// Fewest GPUs: the grid's GPU counts from the smallest up, the first that is ok at the
// entry's side; 0 when none.
std::int64_t brute_gpus(const SweepSpec& s, const Entry& x, Workloads& ws) {
  const auto* w = ws.get(s.models[x.coord.at("model")], s.datasets[x.coord.at("dataset")],
                         s.systems[x.coord.at("system")], x.side);
  if (!w) return -1;  // the model cannot take the side: told apart from "no count fits"
  std::vector<std::int64_t> gpus = s.gpus;
  std::sort(gpus.begin(), gpus.end());
  strategy::Config c = config_of(s, x);
  for (std::int64_t g : gpus) {
    c.gpus = g;
    if (ok(*w, c)) return g;
  }
  return 0;
}

std::vector<std::string> names(const std::vector<Axis>& axes) {
  std::vector<std::string> out;
  for (const auto& a : axes) out.push_back(a.name);
  return out;
}

std::vector<std::string> without(std::vector<std::string> v, const std::string& name) {
  v.erase(std::remove(v.begin(), v.end(), name), v.end());
  return v;
}

// How many entries of a table fall in each class: 0 (nothing fits), strictly inside the
// range, at its top. Guards against a grid where the comparison would be trivial.
struct Spread {
  int zero = 0, inside = 0, top = 0, untaken = 0;  // untaken: -1, the model cannot take it
  int at_end = 0;  // flagged a lower bound (at_search_end), at the range's top or below it
};

// Checks every entry of every table against the brute force; returns the spreads by name.
std::map<std::string, Spread> check_all(const SweepSpec& s, const MemlimitSpec& m) {
  const Evaluator e(s);
  MemlimitSearch search(e, m);
  Workloads ws;
  std::map<std::string, Spread> spreads;
  std::uint64_t brute_predictions = 0;
  const auto grid_names = names(e.grid().axes());
  for (std::size_t t = 0; t < search.tables().size(); ++t) {
    const MemlimitTable& table = search.tables()[t];
    std::uint64_t entries = 1;
    for (const auto& a : table.axes) entries *= a.size();
    EXPECT_EQ(table.entries, entries) << table.name;
    Spread& sp = spreads[table.name];
    for (std::uint64_t i = 0; i < table.entries; ++i) {
      const Entry x = entry_of(table, i);
      std::int64_t want = 0, lo = 0, hi = 0;
      bool at_end = false;  // fewest_gpus: a search downwards, never flagged
      if (table.name == "largest_batch") {
        want = brute_batch(s, m, x, ws, &at_end);
        lo = m.batch_lo;
        hi = m.batch_hi;
        brute_predictions += static_cast<std::uint64_t>(m.batch_hi - m.batch_lo + 1);
      } else if (table.name == "largest_resolution") {
        want = brute_resolution(s, m, x, ws, &at_end);
        lo = m.resolution_lo;
        hi = m.resolution_lo + (m.resolution_hi - m.resolution_lo) / m.resolution_step *
                                   m.resolution_step;  // the largest side of the range
        brute_predictions +=
            static_cast<std::uint64_t>((m.resolution_hi - m.resolution_lo) / m.resolution_step + 1);
      } else {
        want = brute_gpus(s, x, ws);
        lo = *std::min_element(s.gpus.begin(), s.gpus.end());
        hi = *std::max_element(s.gpus.begin(), s.gpus.end());
        brute_predictions += s.gpus.size();
      }
      const std::int64_t got = search.value(t, i);
      EXPECT_EQ(got, want) << table.name << " entry " << i;
      EXPECT_EQ(table.upward, table.name != "fewest_gpus") << table.name;
      EXPECT_EQ(search.at_search_end(t, i, got), at_end) << table.name << " entry " << i;
      if (at_end) ++sp.at_end;
      if (want == 0) {
        ++sp.zero;
      } else if (want == -1) {
        ++sp.untaken;
      } else if (want == hi) {
        ++sp.top;
      } else if (want > lo) {
        ++sp.inside;
      }
    }
  }
  EXPECT_GT(search.evaluations(), 0u);
  EXPECT_LT(search.evaluations(), brute_predictions);  // the searches bisect, not scan
  return spreads;
}

TEST(MemlimitSearch, TablesAreTheGridWithoutTheSearchedAxis) {
  // memlimit_tables.hpp: largest batch over the grid without batch, largest resolution
  // without resolution, fewest GPUs without gpus (and resolution) but with a side axis
  // after model and dataset
  const SweepSpec s = small_spec();
  const Evaluator e(s);
  MemlimitSpec m;
  m.batch_hi = 4096;
  m.resolution = true;
  m.resolution_lo = 64;
  m.resolution_hi = 320;
  m.sides = {128, 256, 512};
  const MemlimitSearch search(e, m);
  ASSERT_EQ(search.tables().size(), 3u);
  const auto grid = names(e.grid().axes());
  EXPECT_EQ(search.tables()[0].name, "largest_batch");
  EXPECT_EQ(names(search.tables()[0].axes), without(grid, "batch"));
  EXPECT_EQ(search.tables()[1].name, "largest_resolution");
  EXPECT_EQ(names(search.tables()[1].axes), without(grid, "resolution"));
  EXPECT_EQ(search.tables()[2].name, "fewest_gpus");
  EXPECT_EQ(names(search.tables()[2].axes),
            (std::vector<std::string>{"model", "dataset", "side", "system", "strategy", "batch"}));
  EXPECT_EQ(search.tables()[2].axes[2].values, m.sides);
  EXPECT_EQ(search.tables()[2].entries, 2u * 1 * 3 * 1 * 4 * 2);

  m.batch = false;
  m.resolution = false;
  m.sides.clear();
  EXPECT_TRUE(MemlimitSearch(e, m).tables().empty());
}

TEST(MemlimitSearch, EveryEntryEqualsABruteForceScan) {
  const MemlimitSpec m{.batch_lo = 1,
                       .batch_hi = 2048,
                       .resolution = true,
                       .resolution_lo = 64,
                       .resolution_hi = 320,
                       .resolution_step = 1,
                       .sides = {128, 256}};
  const auto spreads = check_all(small_spec(), m);
  ASSERT_EQ(spreads.size(), 3u);
  for (const auto& [name, sp] : spreads) {
    EXPECT_GT(sp.zero, 0) << name;
    EXPECT_GT(sp.inside, 0) << name;
  }
  EXPECT_GT(spreads.at("fewest_gpus").untaken, 0);  // resnet50's 3-D sides
  // resnet50 on 3-D data: no batch and no side, told apart from "nothing fits"
  EXPECT_GT(spreads.at("largest_batch").untaken, 0);
  EXPECT_GT(spreads.at("largest_resolution").untaken, 0);
}

TEST(MemlimitSearch, ARangeOfSidesTheModelCannotTakeIsMinusOneNotNothingFits) {
  // unet3d's three poolings halve a side evenly only if it is a multiple of 8 (its decoder
  // concatenates the halved-and-doubled tensor with the skip): 20, 28, ..., 100 has none,
  // and a sweep said 0, "nothing fits", at every GPU count. 20..104 +4 has 24, 32, ...
  SweepSpec s;
  s.models = {"unet3d"};
  s.datasets = {"cosmoflow"};
  s.systems = {"dgx-a100"};
  s.strategies = {"data", "spatial"};
  s.gpus = {1, 8};
  s.batch = {1, 5};
  const Evaluator e(s);
  MemlimitSpec m;
  m.batch = false;
  m.resolution = true;
  m.resolution_lo = 20;
  m.resolution_hi = 100;
  m.resolution_step = 8;
  MemlimitSearch none(e, m);
  for (std::uint64_t i = 0; i < none.tables()[0].entries; ++i) EXPECT_EQ(none.value(0, i), -1) << i;
  m.resolution_hi = 104;
  m.resolution_step = 4;
  MemlimitSearch some(e, m);
  std::int64_t largest = 0;  // 0 stays possible: data on 8 GPUs cannot divide batch 1 or 5
  for (std::uint64_t i = 0; i < some.tables()[0].entries; ++i) {
    EXPECT_GE(some.value(0, i), 0) << i;
    largest = std::max(largest, some.value(0, i));
  }
  EXPECT_EQ(largest, 104);  // data on 1 GPU: one 104^3 sample fits in 76 GB
  // 104 is the range's top: a lower bound. So it stays up to 108, a side unet3d cannot take
  // (the search looked at no larger side it takes), and is no longer one when 112 is taken:
  // data on 1 GPU at batch 5 fits 104 and not 112 (`paradise memlimit --variant paradl
  // --model unet3d --dataset cosmoflow --system dgx-a100 --strategy data --gpus 1 --batch 5
  // --resolution 64..200 --step 8` says 104), at batch 1 112 fits (flagged: the new top)
  for (const std::int64_t hi : {104, 108, 112}) {
    m.resolution_hi = hi;
    MemlimitSearch up_to(e, m);
    int at_104 = 0, at_112 = 0;
    for (std::uint64_t i = 0; i < up_to.tables()[0].entries; ++i) {
      const std::int64_t v = up_to.value(0, i);
      if (v == 104) {
        ++at_104;
        EXPECT_EQ(up_to.at_search_end(0, i, v), hi < 112) << hi << " entry " << i;
      } else if (v == 112) {
        ++at_112;
        EXPECT_TRUE(up_to.at_search_end(0, i, v)) << hi << " entry " << i;
      }
    }
    EXPECT_GT(at_104, 0) << hi;  // data on 1 GPU: both batches, then batch 5
    EXPECT_EQ(at_112 > 0, hi == 112) << hi;
  }
}

TEST(MemlimitSearch, ResolutionStepsAndABatchRangeNotFromOne) {
  // sides 40, 56, ..., 392 (the range's top, 400, is not a side); batches 3..1000
  const MemlimitSpec m{.batch_lo = 3,
                       .batch_hi = 1000,
                       .resolution = true,
                       .resolution_lo = 40,
                       .resolution_hi = 400,
                       .resolution_step = 16,
                       .sides = {96}};
  const auto spreads = check_all(small_spec(), m);
  EXPECT_GT(spreads.at("largest_resolution").inside, 0);
  EXPECT_GT(spreads.at("largest_batch").inside, 0);
}

TEST(MemlimitSearch, LimitsAtTheTopOfTheirSearchAreFlaggedAsLowerBounds) {
  // small ranges that fit to their top: sides 120, 136, ..., 200 (cosmoflow takes none below
  // 120; the range's end, 210, is not a side), batches 3..20 (data on 8 GPUs: 16 is a lower
  // bound, as 24 is past 20)
  const MemlimitSpec m{.batch_lo = 3,
                       .batch_hi = 20,
                       .resolution = true,
                       .resolution_lo = 120,
                       .resolution_hi = 210,
                       .resolution_step = 16,
                       .sides = {}};
  const auto spreads = check_all(small_spec(), m);
  EXPECT_GT(spreads.at("largest_resolution").at_end, 0);
  EXPECT_GT(spreads.at("largest_batch").at_end, 0);
  EXPECT_GT(spreads.at("largest_batch").zero, 0);  // and some that are not flagged
}

TEST(MemlimitSearch, AGridWithoutAResolutionAxis) {
  // the resolution table then keeps every grid axis; fewest GPUs drops only gpus
  SweepSpec s;
  s.models = {"cosmoflow"};
  s.datasets = {"cosmoflow"};
  s.systems = {"abci", "dgx-a100"};
  s.strategies = {"data", "data+spatial", "spatial"};
  s.gpus = {2, 16, 64};
  s.batch = {8, 128};
  MemlimitSpec m;
  m.batch_hi = 1024;
  m.resolution = true;
  m.resolution_lo = 96;
  m.resolution_hi = 480;
  m.resolution_step = 8;
  m.sides = {128, 384};
  {
    const Evaluator e(s);
    const MemlimitSearch search(e, m);
    const auto grid = names(e.grid().axes());
    EXPECT_EQ(names(search.tables()[1].axes), grid);
    EXPECT_EQ(
        names(search.tables()[2].axes),
        (std::vector<std::string>{"model", "dataset", "side", "system", "strategy", "batch"}));
  }
  const auto spreads = check_all(s, m);
  EXPECT_GT(spreads.at("largest_resolution").inside, 0);
  EXPECT_GT(spreads.at("fewest_gpus").inside + spreads.at("fewest_gpus").top, 0);
}

TEST(MemlimitSearch, EmptyRangesAndSidesBelowOneAreInputErrors) {
  const Evaluator e(small_spec());
  MemlimitSpec m;
  m.batch_lo = 0;
  EXPECT_THROW((void)MemlimitSearch(e, m), InputError);
  m.batch_lo = 10;
  m.batch_hi = 9;
  EXPECT_THROW((void)MemlimitSearch(e, m), InputError);
  m.batch = false;
  m.resolution = true;
  m.resolution_lo = 64;
  m.resolution_hi = 32;
  EXPECT_THROW((void)MemlimitSearch(e, m), InputError);
  m.resolution_hi = 128;
  m.resolution_step = 0;
  EXPECT_THROW((void)MemlimitSearch(e, m), InputError);
  m.resolution = false;
  m.sides = {128, 0};
  EXPECT_THROW((void)MemlimitSearch(e, m), InputError);
}

}  // namespace
}  // namespace paradise::sweep
