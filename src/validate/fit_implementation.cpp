// An implementation profile fitted to measured runs (docs/implementations.md §calibrate):
// coordinate descent, each parameter searched on a log scale within its physical bounds
// (a grid, then golden sections), on the squared log errors of every row's time and parts.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "paradise/core/error.hpp"
#include "paradise/validate/fit.hpp"

namespace paradise::validate {
namespace {

using implementation::Exchange;
using implementation::Implementation;

// A parameter: its bounds (log-scaled search) and where it sits in a profile.
struct Knob {
  const char* name;
  const char* unit;
  double lo, hi;
  std::function<double(const Implementation&)> get;
  std::function<void(Implementation&, double)> set;
  /// A limit (a rate that bounds a row only below some value): where no fitted row reaches
  /// it, any value above is as good (settle_unreached_limits).
  bool limit = false;
};

std::vector<Knob> knobs() {
  // a per-call overhead from 0.1 us (a kernel launch) to 100 ms; a staging rate from 0.1 to
  // 100 GB/s (a PCIe x1 link to beyond Gen5 x16); a split layer's efficiency from 5% to 100%;
  // a loading rank's rate from 10 samples/s (3-D volumes from a slow file system) to 100,000
  // (beyond a node's JPEG decoding)
  return {
      {"layer overhead (filter, channel)", "us per call", 0.1, 1e5,
       [](const Implementation& i) { return i.profile.rule(Exchange::Layer).overhead_s * 1e6; },
       [](Implementation& i, double v) { i.profile.rule(Exchange::Layer).overhead_s = v * 1e-6; }},
      {"spatial overhead (halo, gather)", "us per call", 0.1, 1e5,
       [](const Implementation& i) { return i.profile.rule(Exchange::Halo).overhead_s * 1e6; },
       [](Implementation& i, double v) {
         i.profile.rule(Exchange::Halo).overhead_s = v * 1e-6;
         i.profile.rule(Exchange::Gather).overhead_s = v * 1e-6;
       }},
      {"staging rate", "GB/s per PCIe switch", 0.1, 100,
       [](const Implementation& i) { return i.profile.staging_Bps / 1e9; },
       [](Implementation& i, double v) { i.profile.staging_Bps = v * 1e9; }},
      {"split-layer efficiency", "of the roofline", 0.05, 1,
       [](const Implementation& i) { return i.profile.split_efficiency; },
       [](Implementation& i, double v) { i.profile.split_efficiency = v; }},
      {"input loader rate", "samples/s per loading rank", 10, 1e5,
       [](const Implementation& i) { return i.profile.loader_samples_per_s; },
       [](Implementation& i, double v) { i.profile.loader_samples_per_s = v; }, true}};
}

double squared_log(std::optional<double> projected, std::optional<double> measured) {
  if (!projected || !measured || *projected <= 0 || *measured <= 0) return 0;
  const double e = std::log(*projected / *measured);
  return e * e;
}

// The rows' loss under `impl`: every row's time, and its measured parts where given.
class Objective {
 public:
  explicit Objective(const std::vector<MeasuredRun>& runs) : runs_(runs) {}
  std::vector<RowResult> rows(const Implementation& impl) const {
    Options o;
    o.variant = strategy::Variant::Paradise;
    o.profile = &impl;
    o.workloads = &workloads_;
    return evaluate(runs_, o);
  }
  double loss(const Implementation& impl) const {
    double sum = 0;
    for (const auto& r : rows(impl)) {
      if (!r.projected_s) continue;
      sum += squared_log(r.projected_s, r.measured_s);
      const MeasuredRun& m = *r.run;
      // the parts are on the row's basis (iteration or epoch), as the projections are
      if (m.compute_s) sum += squared_log(r.projected_compute_s, m.compute_s);
      if (m.communication_s && r.projected_communication_s)
        sum += squared_log(*r.projected_communication_s - r.projected_overlapped_s.value_or(0),
                           m.communication_s);
    }
    return sum;
  }

 private:
  const std::vector<MeasuredRun>& runs_;
  mutable std::map<std::string, strategy::Workload> workloads_;
};

// The value in [lo, hi] at u in [0, 1] on a log scale.
double at(const Knob& k, double u) {
  return std::exp(std::log(k.lo) + u * (std::log(k.hi) - std::log(k.lo)));
}

// One parameter's best value, the others fixed: a 9-point grid, then golden sections
// around the best point.
double search(const Objective& f, Implementation& impl, const Knob& k) {
  const auto loss_at = [&](double u) {
    k.set(impl, at(k, u));
    return f.loss(impl);
  };
  double best_u = 0, best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= 8; ++i) {
    const double u = i / 8.0, l = loss_at(u);
    if (l < best) best = l, best_u = u;
  }
  double a = std::max(0.0, best_u - 0.125), b = std::min(1.0, best_u + 0.125);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = loss_at(x1), f2 = loss_at(x2);
  for (int i = 0; i < 30; ++i) {
    if (f1 <= f2) {
      b = x2, x2 = x1, f2 = f1, x1 = b - g * (b - a), f1 = loss_at(x1);
    } else {
      a = x1, x1 = x2, f1 = f2, x2 = a + g * (b - a), f2 = loss_at(x2);
    }
  }
  const double u = f1 <= f2 ? x1 : x2;
  const double v = std::min(f1, f2) < best ? at(k, u) : at(k, best_u);
  k.set(impl, v);
  return v;
}

// The free parameters together from where coordinate descent left them: Nelder and Mead's
// simplex (reflection 1, expansion 2, contraction and shrink 1/2) on their log positions,
// clamped to the bounds. Correlated parameters (the overheads and the split layers'
// efficiency all lengthen model-parallel steps) need the joint moves one at a time lacks.
void polish(const Objective& f, Implementation& impl, const std::vector<Knob>& ks,
            const std::vector<std::size_t>& free) {
  const std::size_t n = free.size();
  if (n == 0) return;
  using Point = std::vector<double>;
  const auto pos = [&](const Knob& k) {
    return (std::log(k.get(impl)) - std::log(k.lo)) / (std::log(k.hi) - std::log(k.lo));
  };
  const auto loss = [&](Point& u) {
    for (std::size_t i = 0; i < n; ++i) {
      u[i] = std::clamp(u[i], 0.0, 1.0);
      ks[free[i]].set(impl, at(ks[free[i]], u[i]));
    }
    return f.loss(impl);
  };
  std::vector<Point> x(n + 1, Point(n));
  for (std::size_t i = 0; i < n; ++i) x[0][i] = pos(ks[free[i]]);
  std::vector<double> y(n + 1);
  for (std::size_t j = 1; j <= n; ++j) {
    x[j] = x[0];
    x[j][j - 1] += x[0][j - 1] > 0.5 ? -0.05 : 0.05;
  }
  for (std::size_t j = 0; j <= n; ++j) y[j] = loss(x[j]);
  const auto mix = [&](const Point& a, const Point& b, double t) {  // a + t (b - a)
    Point p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = a[i] + t * (b[i] - a[i]);
    return p;
  };
  for (int step = 0; step < 400; ++step) {
    std::vector<std::size_t> order(n + 1);
    for (std::size_t j = 0; j <= n; ++j) order[j] = j;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return y[a] < y[b]; });
    const std::size_t best = order.front(), worst = order.back(), second = order[n - 1];
    if (y[worst] - y[best] <= 1e-14 * std::max(1e-12, y[best])) break;
    Point centre(n, 0.0);
    for (std::size_t j = 0; j <= n; ++j) {
      if (j == worst) continue;
      for (std::size_t i = 0; i < n; ++i) centre[i] += x[j][i] / static_cast<double>(n);
    }
    Point r = mix(centre, x[worst], -1);
    const double fr = loss(r);
    if (fr < y[best]) {
      Point e = mix(centre, x[worst], -2);
      const double fe = loss(e);
      x[worst] = fe < fr ? e : r, y[worst] = std::min(fe, fr);
    } else if (fr < y[second]) {
      x[worst] = r, y[worst] = fr;
    } else {
      Point k = mix(centre, x[worst], 0.5);
      const double fk = loss(k);
      if (fk < y[worst]) {
        x[worst] = k, y[worst] = fk;
      } else {
        for (std::size_t j = 0; j <= n; ++j) {
          if (j == best) continue;
          x[j] = mix(x[best], x[j], 0.5);
          y[j] = loss(x[j]);
        }
      }
    }
  }
  const auto top = static_cast<std::size_t>(std::min_element(y.begin(), y.end()) - y.begin());
  loss(x[top]);
}

// Whether any row's projection moves with the parameter across its range.
bool decides(const Objective& f, Implementation impl, const Knob& k) {
  k.set(impl, k.lo);
  const double low = f.loss(impl);
  k.set(impl, k.hi);
  return std::abs(f.loss(impl) - low) > 1e-12 * std::max(1.0, low);
}

// A limit that bounds no row at the fit (no row's projection more than 1% longer than with
// the limit lifted to its upper bound: a wait within the fit's noise) is not determined by
// the rows. Where the base profile's value bounds none of them either, it is kept; where it
// bounds some, the rows say only that the limit is above it: the least value at which no
// row waits at all (bisected on a log scale up from the base's value, or the knob's lower
// bound if that is higher; a wait grows as the rate falls) stands, as a lower bound.
void settle_unreached_limits(const Objective& f, Implementation& impl, const Implementation& base,
                             const std::vector<Knob>& ks, std::vector<Decided>& decided) {
  const auto rows_at = [&](const Knob& k, double v) {
    Implementation moved = impl;
    k.set(moved, v);
    return f.rows(moved);
  };
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const Knob& k = ks[i];
    if (decided[i] != Decided::Fitted || !k.limit) continue;
    const auto lifted = rows_at(k, k.hi);
    // no row's projection longer than with the limit lifted by more than `slack` of it
    const auto unreached = [&](double v, double slack) {
      const auto rows = rows_at(k, v);
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto &a = lifted[r].projected_s, &b = rows[r].projected_s;
        if (a.has_value() != b.has_value() || (a && *b > (1 + slack) * *a)) return false;
      }
      return true;
    };
    if (!unreached(k.get(impl), 0.01)) continue;
    const double kept = k.get(base);
    if (unreached(kept, 0.01)) {
      k.set(impl, kept);
      decided[i] = Decided::Kept;
      continue;
    }
    // from the base's value (or the knob's lower bound) to its upper bound: the fit's own
    // value may leave a row waiting, within the 1%
    double low = std::log(std::max(kept, k.lo)), high = std::log(k.hi);
    while (high - low > 1e-7) {
      const double mid = (low + high) / 2;
      (unreached(std::exp(mid), 0) ? high : low) = mid;
    }
    k.set(impl, std::exp(high));
    decided[i] = Decided::AtLeast;
  }
}

Implementation fitted(const std::vector<MeasuredRun>& runs, const Implementation& base,
                      std::vector<FittedParameter>* report) {
  const Objective f(runs);
  const auto ks = knobs();
  // a limit can hide the other parameters (a loader slow enough that every row waits for it
  // leaves them no effect): the search starts, and asks what moves a row, with the limits
  // lifted to their upper bounds; one that moves none keeps the base's value
  Implementation impl = base;
  for (const auto& k : ks) {
    if (k.limit) k.set(impl, k.hi);
  }
  std::vector<Decided> decided(ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    decided[i] = decides(f, impl, ks[i]) ? Decided::Fitted : Decided::Kept;
    if (ks[i].limit && decided[i] == Decided::Kept) ks[i].set(impl, ks[i].get(base));
  }
  double last = f.loss(impl);
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (std::size_t i = 0; i < ks.size(); ++i) {
      if (decided[i] == Decided::Fitted) search(f, impl, ks[i]);
    }
    const double now = f.loss(impl);
    if (last - now <= 1e-9 * std::max(1.0, last)) break;
    last = now;
  }
  std::vector<std::size_t> moving;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    if (decided[i] == Decided::Fitted) moving.push_back(i);
  }
  polish(f, impl, ks, moving);
  settle_unreached_limits(f, impl, base, ks, decided);
  if (report) {
    for (std::size_t i = 0; i < ks.size(); ++i)
      report->push_back({ks[i].name, ks[i].unit, ks[i].lo, ks[i].hi, ks[i].get(impl), decided[i]});
  }
  return impl;
}

std::optional<double> mean_accuracy(const std::vector<std::optional<double>>& accuracies) {
  double sum = 0;
  int n = 0;
  for (const auto& a : accuracies) {
    if (a) sum += *a, ++n;
  }
  return n ? std::optional<double>(sum / n) : std::nullopt;
}

}  // namespace

ImplementationFit fit_implementation(const std::vector<MeasuredRun>& runs,
                                     const implementation::Implementation& base,
                                     const std::string& fitted_name) {
  for (const auto& r : runs) {
    if (!r.implementation.empty() && r.implementation != base.name)
      fail_input({r.file, r.line}, "column implementation", r.implementation,
                 "the fit calibrates '" + base.name + "' from every row: leave the cell empty");
  }
  ImplementationFit out;
  Implementation start = base;
  start.name = fitted_name;
  // nothing to fit on: every row invalid under the base profile (each says why)
  const auto first = Objective(runs).rows(start);
  if (std::none_of(first.begin(), first.end(), [](const RowResult& r) { return r.projected_s; }))
    fail_input({runs.front().file, runs.front().line}, "row", first.front().status,
               "no row can be predicted, so nothing can be fitted (" + first.front().reason + ")");
  out.profile = fitted(runs, start, &out.parameters);
  out.rows = Objective(runs).rows(out.profile);
  std::vector<std::optional<double>> fit_acc, held_acc;
  for (const auto& r : out.rows) fit_acc.push_back(r.accuracy);
  out.mean_accuracy = mean_accuracy(fit_acc);
  // leave one GPU count out: fit on the others, project its rows
  out.held_out_s.assign(runs.size(), std::nullopt);
  std::set<std::int64_t> counts;
  for (const auto& r : runs) counts.insert(r.gpus);
  for (const auto g : counts) {
    std::vector<MeasuredRun> train, test;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].gpus == g) {
        test.push_back(runs[i]);
        index.push_back(i);
      } else {
        train.push_back(runs[i]);
      }
    }
    if (train.empty()) continue;
    const Implementation p = fitted(train, start, nullptr);
    const auto rows = Objective(test).rows(p);
    for (std::size_t j = 0; j < rows.size(); ++j) out.held_out_s[index[j]] = rows[j].projected_s;
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& m = out.rows[i].measured_s;
    held_acc.push_back(out.held_out_s[i] && m ? std::optional(accuracy(*out.held_out_s[i], *m))
                                              : std::nullopt);
  }
  out.held_out_mean_accuracy = mean_accuracy(held_acc);
  return out;
}

}  // namespace paradise::validate
