#include "paradise/report/calibrate.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "paradise/calibrate/fit.hpp"
#include "paradise/calibrate/measurements.hpp"
#include "paradise/calibrate/system_writer.hpp"
#include "paradise/core/atomic_file.hpp"
#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/system/catalog.hpp"

namespace paradise::report {
namespace {

/// A held-out batch predicted further off than this is warned about: the fitted curve does
/// not carry over to a batch it was not fitted to (docs/cli.md, calibrate).
constexpr double kHeldOutWarning = 0.25;

/// The network level named `name` ("NAME" or "host_level.NAME"); lists the names otherwise.
system::NetworkLevel& find_level(system::System& s, const std::string& name,
                                 const MeasurementSource& src) {
  const bool host = name.starts_with("host_level.");
  const std::string bare = host ? name.substr(11) : name;
  auto& levels = host ? s.host_staged_levels : s.levels;
  for (auto& l : levels) {
    if (l.name == bare) return l;
  }
  // "FILE:nvlink:abc": a level before the last ':' means GPUS was not a whole number
  const auto colon = src.file.rfind(':');
  if (colon != std::string::npos) {
    const std::string before = src.file.substr(colon + 1);
    for (const auto* ls : {&s.levels, &s.host_staged_levels})
      for (const auto& l : *ls)
        if (before == l.name || before == "host_level." + l.name)
          throw InputError(src.option + " '" + src.text + "': GPUS '" + name +
                           "': expected a whole number >= 2 (FILE:LEVEL[:GPUS])");
  }
  std::string known;
  for (const auto& l : s.levels) known += (known.empty() ? "" : ", ") + l.name;
  for (const auto& l : s.host_staged_levels) known += ", host_level." + l.name;
  throw InputError(src.option + " '" + src.text + "': system '" + s.name + "' has no level '" +
                   name + "'; its levels: " + known);
}

std::string us(double s) {
  return fixed(s * 1e6, 3);
}

void print_fit(std::ostream& out, const calibrate::Measurement& m, const calibrate::Fit& f,
               const MeasurementSource& src, const system::NetworkLevel& before,
               const system::NetworkLevel& after) {
  out << src.file << " (" << m.tool << ", " << calibrate::form_name(m.form) << " on " << m.ranks
      << " GPUs) -> level " << src.level << ":\n"
      << "  alpha " << us(f.alpha_s) << " us (was " << us(before.latency_s) << "), bandwidth "
      << fixed(after.bandwidth_Bps / 1e9, 3) << " GB/s (was "
      << fixed(before.bandwidth_Bps / 1e9, 3) << "); residuals: rms "
      << fixed(100 * f.rms_relative, 2) << "%, max " << fixed(100 * f.max_relative, 2) << "%"
      << (f.alpha_clamped ? "; alpha < 0 in the free fit, set to 0" : "")
      << (f.beta_clamped ? "; beta < 0 in the free fit, set to 0" : "") << '\n';
  TextTable t;
  t.add_column("bytes");
  t.add_column("measured us");
  t.add_column("fitted us");
  t.add_column("residual");
  for (const auto& r : f.residuals)
    t.add_row({with_commas(static_cast<std::int64_t>(r.bytes)), us(r.measured_s), us(r.fitted_s),
               fixed(100 * r.relative(), 2) + "%"});
  t.print(out);
  out << '\n';
}

/// The profile's precision column as the roofline's (empty: fp32); unknown names are errors.
strategy::Precision profile_precision(const std::vector<strategy::LayerTime>& rows,
                                      const std::string& profile) {
  if (rows.front().precision.empty()) return strategy::Precision::Fp32;
  const auto p = strategy::precision_from_name(rows.front().precision);
  if (!p)
    fail_input({profile, rows.front().line}, "column precision", rows.front().precision,
               "expected fp32, tf32, mixed, fp16 or bf16");
  return *p;
}

/// Prints the fitted GEMM efficiency curve and, per batch, the measured sum of the layers
/// against the fit and against a fit that left the batch out.
void print_curve_fit(std::ostream& out, const calibrate::RooflineFit& f,
                     const strategy::GemmCurve& before, const std::string& profile) {
  out << "\nGEMM efficiency curve e_max g(M) g(N) g(K), g(x) = x / (x + h), fitted to "
      << f.gemm_layers << " GEMM layer times of " << profile << ":\n  e_max "
      << fixed(f.curve.efficiency_max, 4) << " (was " << fixed(before.efficiency_max, 4) << "), h "
      << fixed(f.curve.half_dim, 2) << " (was " << fixed(before.half_dim, 2)
      << (f.half_dim_fixed ? ", kept: one batch size only" : "") << "); per-layer rms residual "
      << fixed(100 * f.rms_relative, 1) << "%\n";
  if (f.conv3x3_efficiency_max > 0)
    out << "  3x3 stride-1 convolutions apart (cuDNN's Winograd ones): e_max "
        << fixed(f.conv3x3_efficiency_max, 4) << " at that h\n";
  if (f.efficiency_clamped)
    out << "  note: e_max reached 1: the layers ran at or above the system's peak "
           "FLOP/s; check peak_*_TFLOPs\n";
  TextTable t;
  t.add_column("batch");
  t.add_column("measured ms");
  t.add_column("fitted ms");
  t.add_column("error");
  t.add_column("held out ms");
  t.add_column("held-out error");
  const auto error = [](double x, double m) { return fixed(100 * (x - m) / m, 1) + "%"; };
  for (const auto& b : f.batches) {
    const bool held = b.held_out_s > 0;
    t.add_row({std::to_string(b.batch), fixed(b.measured_s * 1e3, 3), fixed(b.fitted_s * 1e3, 3),
               error(b.fitted_s, b.measured_s), held ? fixed(b.held_out_s * 1e3, 3) : "-",
               held ? error(b.held_out_s, b.measured_s) : "-"});
  }
  t.print(out);
  out << "  (held out: the batch predicted by a curve fitted to the other batches only)\n";
  for (const auto& b : f.batches) {
    const double held_out_error = (b.held_out_s - b.measured_s) / b.measured_s;
    if (b.held_out_s > 0 && std::abs(held_out_error) > kHeldOutWarning)
      std::cerr << "paradise calibrate: warning: " << profile << ": batch " << b.batch
                << " held out is predicted " << fixed(100 * held_out_error, 1)
                << "% off its measured time (more than " << fixed(100 * kHeldOutWarning, 0)
                << "%): the curve does not carry over between batches; check the profile\n";
  }
}

/// Each layer's efficiency: its forward + backward FLOPs per sample over its time, against
/// the GPU's fp32 peak.
void print_layer_efficiency(std::ostream& out, const strategy::Workload& w) {
  TextTable t;
  t.add_column("layer", TextTable::Align::Left);
  t.add_column("ms/sample");
  t.add_column("share");
  t.add_column("GFLOP/sample");
  t.add_column("TFLOP/s");
  t.add_column("of fp32 peak");
  double total_t = 0, total_flops = 0;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) total_t += w.layer_time_s[i];
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) {
    const auto& l = w.model.layers[i];
    const double flops = l.forward_flops + l.backward_data_flops + l.backward_weight_flops;
    const double tl = w.layer_time_s[i];
    if (tl <= 0) continue;
    total_flops += flops;
    const double rate = flops / tl;
    t.add_row({l.name, fixed(tl * 1e3, 4), fixed(100 * tl / total_t, 1) + "%",
               fixed(flops / 1e9, 4), fixed(rate / 1e12, 3),
               fixed(100 * rate / w.system.gpu.peak_fp32_flops, 1) + "%"});
  }
  t.add_row(
      {"total", fixed(total_t * 1e3, 4), "100.0%", fixed(total_flops / 1e9, 4),
       fixed(total_t > 0 ? total_flops / total_t / 1e12 : 0, 3),
       fixed(total_t > 0 ? 100 * total_flops / total_t / w.system.gpu.peak_fp32_flops : 0, 1) +
           "%"});
  t.print(out);
}

/// The layer-times CSV predict/recommend/sweep take, written whole or not at all.
void write_layer_times(const std::vector<strategy::LayerTime>& rows, const std::string& model,
                       const std::string& profile, const std::string& out_path) {
  std::ostringstream file;
  file.precision(17);
  file << "# per-layer measured times of " << model << " from " << profile
       << " (paradise calibrate --profile); seconds per sample\n"
       << "layer,forward_s,backward_s,batch,precision,peak_memory_bytes\n";
  for (const auto& r : rows)
    file << csv_field(r.layer) << ',' << r.forward_s << ',' << r.backward_s << ',' << r.batch << ','
         << csv_field(r.precision) << ',' << r.peak_memory_bytes << '\n';
  write_file_atomically(out_path, file.str(), "--layer-times-out");
}

/// Fits `src`'s alpha and beta into its level of `s` (`done`: the levels calibrated before);
/// returns the comment line saying so.
std::string fit_level(std::ostream& out, system::System& s, const MeasurementSource& src,
                      std::set<std::string>& done) {
  system::NetworkLevel& level = find_level(s, src.level, src);
  if (!done.insert(src.level).second)
    throw InputError(src.option + " '" + src.text + "': level '" + src.level +
                     "' is calibrated by another measurement already");
  std::istringstream in(read_input_file(src.file, "measurement file"));
  const calibrate::Measurement m = src.option == "--nccl"
                                       ? calibrate::parse_nccl_tests(in, src.file, src.gpus)
                                       : calibrate::parse_osu(in, src.file, src.gpus);
  const calibrate::Fit f = calibrate::fit_alpha_beta(m);
  // the system file reader's bounds (a petabyte per second, 10 s): beyond them the time
  // barely grows with the size, or not at all
  if (!(f.beta_s_per_byte > 1e-15))
    throw InputError(src.file + ": the fit's bandwidth is " +
                     (f.beta_s_per_byte > 0 ? fixed(1e-9 / f.beta_s_per_byte, 0) + " GB/s"
                                            : std::string("unbounded (beta = 0)")) +
                     ", more than 1e6 GB/s: the times barely grow with the size; measure "
                     "larger messages");
  if (f.alpha_s > 10)
    throw InputError(src.file + ": the fit's latency is " + fixed(f.alpha_s, 1) +
                     " s, more than 10 s: check the time unit (nccl-tests and OSU print us)");
  const system::NetworkLevel before = level;
  level.latency_s = f.alpha_s;
  level.bandwidth_Bps = 1 / f.beta_s_per_byte;
  print_fit(out, m, f, src, before, level);
  level.node_bandwidth = false;
  if (m.form != calibrate::Form::PointToPoint && m.ranks > s.gpus_per_node) {
    // a collective across nodes runs over all of a node's adapters at once: its bus
    // bandwidth is the node's, which the paradise variant must not multiply again (the
    // other levels stay one adapter's)
    level.node_bandwidth = true;
    out << "  note: " << m.ranks << "-GPU " << calibrate::form_name(m.form)
        << " spans nodes: its bandwidth is a whole node's (node_bandwidth = true for " << level.name
        << ")\n\n";
  }
  if (m.ranks > level.span_gpus)
    out << "  note: " << m.ranks << " GPUs span more than level " << level.name << " ("
        << level.span_gpus << " GPUs): the measurement includes a higher level\n\n";
  return "\nlevel " + src.level + ": " + src.file + " (" + m.tool + ", " +
         std::string(calibrate::form_name(m.form)) + " on " + std::to_string(m.ranks) +
         " GPUs): alpha " + us(f.alpha_s) + " us, " + fixed(1e-9 / f.beta_s_per_byte, 3) +
         " GB/s, rms residual " + fixed(100 * f.rms_relative, 2) + "%";
}

}  // namespace

std::string calibrate_network(std::ostream& out, system::System& s,
                              const std::vector<MeasurementSource>& sources) {
  std::string comment;
  std::set<std::string> done;
  for (const auto& src : sources) comment += fit_level(out, s, src, done);
  return comment;
}

calibrate::RooflineFit calibrate_layers(std::ostream& out, const std::string& profile,
                                        const std::string& model, const std::string& dataset,
                                        const std::string& system_name,
                                        const system::System& calibrated,
                                        const std::string& out_path) {
  strategy::WorkloadSpec spec;
  spec.model = model;
  // the model's own input unless given; D does not matter
  spec.dataset = dataset.empty() ? strategy::own_input_dataset(model) : dataset;
  spec.system = system_name;
  spec.layer_times = profile;
  strategy::Workload w = strategy::make_workload(spec);  // names checked against the model
  w.system = calibrated;
  const auto rows = strategy::read_layer_times(profile);
  std::set<std::int64_t> batches;
  for (const auto& r : rows) batches.insert(r.batch);
  out << "layer times " << profile << " (" << rows.size() << " rows, batch";
  for (auto b : batches) out << ' ' << b;
  out << "): " << w.time_source << '\n';
  print_layer_efficiency(out, w);

  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) index.emplace(w.model.layers[i].name, i);
  std::vector<calibrate::LayerObservation> observations;
  for (const auto& r : rows) {
    const auto b = static_cast<double>(r.batch);
    // a convolution or linear layer timed at 0 s (a profiler's lost event) was skipped, and
    // the fit of the rest wrote e_max 0.055 at 126% held-out error: refused with its line
    if (w.model.layers[index.at(r.layer)].macs > 0 && !(r.forward_s + r.backward_s > 0))
      fail_input({profile, r.line}, "layer", r.layer,
                 "forward_s + backward_s = " + fixed_or_exponent(r.forward_s + r.backward_s, 3) +
                     " s: a layer with a GEMM (convolution, linear) takes time; profile it again");
    observations.push_back({&w.model.layers[index.at(r.layer)], r.batch,
                            (r.forward_s + r.backward_s) * b});  // per sample -> per batch
  }
  const strategy::GemmCurve before = strategy::gemm_curve(calibrated.gpu);
  calibrate::RooflineFit fit;
  try {
    fit = calibrate::fit_gemm_curve(calibrated.gpu, profile_precision(rows, profile), observations,
                                    before);
  } catch (const InputError& e) {
    throw InputError(profile + ": " + e.what());
  }
  print_curve_fit(out, fit, before, profile);

  write_layer_times(rows, model, profile, out_path);
  out << "wrote " << out_path << " (paradise predict --layer-times " << out_path << ")\n";
  return fit;
}

void write_calibrated_system(std::ostream& out, const system::System& s, const std::string& comment,
                             const std::string& path, const std::string& layers_out) {
  s.validate();
  // what is written must read back: a fit outside the system file's bounds (CPU-timed
  // layers against a GPU's peak: e_max 1e-4) is said now, not by the next predict
  std::ostringstream text;
  calibrate::write_system_file(text, s, comment);
  try {
    std::istringstream back(text.str());
    system::parse_system_file(back, path);
  } catch (const InputError& e) {
    // nothing of a refused calibration stays: the layer times written before go too
    const bool removed = !layers_out.empty() && std::remove(layers_out.c_str()) == 0;
    throw InputError(std::string("the calibrated system file would not read back (") + e.what() +
                     ": a line of the file it would write)" +
                     (removed ? "; " + layers_out + " removed" : std::string()) +
                     " (were the measurements taken on this system's GPUs and network?)");
  }
  // beside it and renamed over it: a failed write keeps the old file (--system X -o X)
  write_file_atomically(path, text.str(), "-o");
  out << "wrote " << path << " (system '" << s.name << "')\n";
}

}  // namespace paradise::report
