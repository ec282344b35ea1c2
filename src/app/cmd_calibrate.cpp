// `paradise calibrate`: a system file with alpha and beta fitted to nccl-tests / OSU
// measurements per network level and the roofline's GEMM efficiency curve fitted to per-layer
// measured times of a model, with the fit quality (residual per message size, efficiency per
// layer, error per batch, also for batches left out of the fit) printed.

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/calibrate/fit.hpp"
#include "paradise/calibrate/measurements.hpp"
#include "paradise/calibrate/roofline_fit.hpp"
#include "paradise/calibrate/system_writer.hpp"
#include "paradise/core/csv.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/system/catalog.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

struct Source {
  std::string option, text, file, level;
  std::int64_t gpus = 0;
};

/// "FILE:LEVEL[:GPUS]" (split from the right, so that FILE may hold ':').
Source parse_source(const std::string& option, const std::string& text) {
  Source s{option, text, "", "", 0};
  std::string rest = text;
  const auto fail = [&] {
    throw InputError(option + " '" + text + "': expected FILE:LEVEL[:GPUS]");
  };
  auto colon = rest.rfind(':');
  if (colon == std::string::npos) fail();
  std::string last = rest.substr(colon + 1);
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!last.empty() && std::all_of(last.begin(), last.end(), digit)) {
    s.gpus = parse_int(last, {option, 0}, "GPUS");
    if (s.gpus < 2)
      throw InputError(option + " '" + text + "': GPUS " + last +
                       ": a measured collective or transfer needs at least 2 GPUs");
    rest = rest.substr(0, colon);
    colon = rest.rfind(':');
    if (colon == std::string::npos) fail();
  }
  s.file = rest.substr(0, colon);
  s.level = rest.substr(colon + 1);
  if (s.file.empty() || s.level.empty()) fail();
  return s;
}

/// The network level named `name` ("NAME" or "host_level.NAME"); lists the names otherwise.
system::NetworkLevel& find_level(system::System& s, const std::string& name, const Source& src) {
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

void print_fit(const calibrate::Measurement& m, const calibrate::Fit& f, const Source& src,
               const system::NetworkLevel& before, const system::NetworkLevel& after) {
  std::cout << src.file << " (" << m.tool << ", " << calibrate::form_name(m.form) << " on "
            << m.ranks << " GPUs) -> level " << src.level << ":\n"
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
  t.print(std::cout);
  std::cout << '\n';
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
void print_curve_fit(const calibrate::RooflineFit& f, const strategy::GemmCurve& before,
                     const std::string& profile) {
  std::cout << "\nGEMM efficiency curve e_max g(M) g(N) g(K), g(x) = x / (x + h), fitted to "
            << f.gemm_layers << " GEMM layer times of " << profile << ":\n  e_max "
            << fixed(f.curve.efficiency_max, 4) << " (was " << fixed(before.efficiency_max, 4)
            << "), h " << fixed(f.curve.half_dim, 2) << " (was " << fixed(before.half_dim, 2)
            << (f.half_dim_fixed ? ", kept: one batch size only" : "")
            << "); per-layer rms residual " << fixed(100 * f.rms_relative, 1) << "%\n";
  if (f.efficiency_clamped)
    std::cout << "  note: e_max reached 1: the layers ran at or above the system's peak "
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
  t.print(std::cout);
  std::cout << "  (held out: the batch predicted by a curve fitted to the other batches only)\n";
}

/// Checks the per-layer times against the model, prints each layer's efficiency (its
/// forward + backward FLOPs per sample over its time, against the GPU's peak), fits the
/// roofline's GEMM efficiency curve to every batch and writes the layer-times CSV
/// predict/recommend/sweep take. Returns the fit.
calibrate::RooflineFit calibrate_layers(const std::string& profile, const std::string& model,
                                        const std::string& dataset, const std::string& system_name,
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
  std::cout << "layer times " << profile << " (" << rows.size() << " rows, batch";
  for (auto b : batches) std::cout << ' ' << b;
  std::cout << "): " << w.time_source << '\n';
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
  t.print(std::cout);

  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < w.model.layers.size(); ++i) index.emplace(w.model.layers[i].name, i);
  std::vector<calibrate::LayerObservation> observations;
  for (const auto& r : rows) {
    const auto b = static_cast<double>(r.batch);
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
  print_curve_fit(fit, before, profile);

  std::ofstream out(out_path);
  if (!out) throw InputError("--layer-times-out '" + out_path + "': cannot write the file");
  out.precision(17);
  out << "# per-layer measured times of " << model << " from " << profile
      << " (paradise calibrate --profile); seconds per sample\n"
      << "layer,forward_s,backward_s,batch,precision,peak_memory_bytes\n";
  for (const auto& r : rows)
    out << csv_field(r.layer) << ',' << r.forward_s << ',' << r.backward_s << ',' << r.batch << ','
        << csv_field(r.precision) << ',' << r.peak_memory_bytes << '\n';
  out.close();  // the buffered bytes' write error shows here, not in the destructor
  if (out.fail()) {
    if (path_status(out_path).kind == PathKind::file) std::remove(out_path.c_str());
    throw InputError("--layer-times-out '" + out_path + "': write failed");
  }
  std::cout << "wrote " << out_path << " (paradise predict --layer-times " << out_path << ")\n";
  return fit;
}

}  // namespace

int run_calibrate(const Args& args) {
  po::options_description desc(
      "paradise calibrate --system S [--nccl FILE:LEVEL[:GPUS]]... [--osu FILE:LEVEL[:GPUS]]... "
      "[-o OUT.system] [--profile LAYERS.csv --model M [--layer-times-out FILE]]");
  std::string system_name, output, name, profile, model, dataset, layers_out;
  std::vector<std::string> nccl, osu;
  desc.add_options()("system", po::value(&system_name)->required(),
                     "built-in system or *.system file to calibrate")(
      "nccl", po::value(&nccl)->composing(),
      "nccl-tests output FILE for network level LEVEL (GPUS: the run's GPU count if the output "
      "lacks '#  Rank' lines); repeatable")(
      "osu", po::value(&osu)->composing(),
      "OSU micro-benchmarks output FILE for LEVEL (GPUS: required for collectives); repeatable")(
      "output,o", po::value(&output), "the calibrated system file to write")(
      "name", po::value(&name), "the calibrated system's name (default: NAME-calibrated)")(
      "profile", po::value(&profile),
      "per-layer times CSV (analysis/profile_layers.py): fit the GEMM efficiency curve, "
      "write a layer-times CSV")("model", po::value(&model),
                                 "the model the profile is of (zoo name or model file)")(
      "dataset", po::value(&dataset), "dataset for the model's input (default: the model's own)")(
      "layer-times-out", po::value(&layers_out),
      "the layer-times CSV to write (default: MODEL-layer-times.csv)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Fits network alpha and beta to collective benchmarks and the GEMM efficiency "
                     "curve to per-layer times; writes a calibrated system file."))
    return 0;
  system::System s;
  try {
    s = system::find_system(system_name);
  } catch (const InputError& e) {
    throw InputError(std::string("--system: ") + e.what());
  }
  if (nccl.empty() && osu.empty() && profile.empty())
    throw InputError("nothing to calibrate: give --nccl, --osu or --profile");
  if ((!nccl.empty() || !osu.empty()) && output.empty())
    throw InputError("-o OUT.system is required with --nccl or --osu");
  if (!profile.empty() && model.empty()) throw InputError("--profile needs --model");
  // the name goes into the file's "name = ..." line: empty it was taken as the default,
  // and '#' or ';' would start a comment there
  if (vm.count("name") && (trim(name).empty() || trim(name) != name ||
                           name.find_first_of("#;\n\r") != std::string::npos))
    throw InputError("--name '" + printable(name, false, 160) +
                     "': expected a non-empty name without surrounding spaces, '#', ';' or "
                     "line breaks");
  const bool default_layers_out = !profile.empty() && layers_out.empty();
  if (default_layers_out) {  // the default, before the checks below
    std::string stem = model.substr(model.find_last_of('/') + 1);
    stem = stem.substr(0, stem.find('.'));
    layers_out = stem + "-layer-times.csv";
  }
  // the system file is written last: a path that cannot be written is said before any
  // other file (the layer times) is
  if (!output.empty()) {
    // written through a stream, not replaced: a device (-o /dev/stdout) takes it too
    if (const std::string why = why_unwritable(output);
        !why.empty() && path_status(output).kind != PathKind::special)
      throw InputError("-o '" + output + "': cannot write the file (" + why + ")");
  }
  if (!output.empty() && !layers_out.empty()) {
    std::error_code ec;
    if (output == layers_out || std::filesystem::equivalent(output, layers_out, ec))
      throw InputError("-o '" + output + "' and --layer-times-out '" + layers_out +
                       "': the same file (the system file would replace the layer times)");
  }
  std::vector<Source> sources;
  for (const auto& n : nccl) sources.push_back(parse_source("--nccl", n));
  for (const auto& o : osu) sources.push_back(parse_source("--osu", o));
  // no output replaces a measurement or the model it is of (-o over the nccl-tests output
  // destroyed it); the --system file may be calibrated in place (read before)
  std::vector<std::pair<std::string, std::string>> inputs;  // option, file
  for (const auto& src : sources) inputs.emplace_back(src.option, src.file);
  if (!profile.empty()) inputs.emplace_back("--profile", profile);
  if (path_status(model).kind == PathKind::file) inputs.emplace_back("--model", model);
  for (const auto& [out_option, out_path] :
       {std::pair<std::string, std::string>{"-o", output}, {"--layer-times-out", layers_out}}) {
    if (out_path.empty()) continue;
    for (const auto& [in_option, in_path] : inputs) {
      std::error_code ec;
      if (out_path == in_path || std::filesystem::equivalent(out_path, in_path, ec))
        throw InputError(
            out_option + " '" + out_path + "' and " + in_option + " '" + in_path +
            "': the same file (the output would replace the input)" +
            (out_option == "--layer-times-out" && default_layers_out
                 ? "; that is the default --layer-times-out, MODEL-layer-times.csv: give another"
                 : ""));
    }
  }
  std::string comment = "calibrated from system '" + s.name + "' by paradise calibrate";
  std::set<std::string> done;
  for (const auto& src : sources) {
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
    print_fit(m, f, src, before, level);
    level.node_bandwidth = false;
    if (m.form != calibrate::Form::PointToPoint && m.ranks > s.gpus_per_node) {
      // a collective across nodes runs over all of a node's adapters at once: its bus
      // bandwidth is the node's, which the paradise variant must not multiply again (the
      // other levels stay one adapter's)
      level.node_bandwidth = true;
      std::cout << "  note: " << m.ranks << "-GPU " << calibrate::form_name(m.form)
                << " spans nodes: its bandwidth is a whole node's (node_bandwidth = true for "
                << level.name << ")\n\n";
    }
    if (m.ranks > level.span_gpus)
      std::cout << "  note: " << m.ranks << " GPUs span more than level " << level.name << " ("
                << level.span_gpus << " GPUs): the measurement includes a higher level\n\n";
    comment += "\nlevel " + src.level + ": " + src.file + " (" + m.tool + ", " +
               std::string(calibrate::form_name(m.form)) + " on " + std::to_string(m.ranks) +
               " GPUs): alpha " + us(f.alpha_s) + " us, " + fixed(1e-9 / f.beta_s_per_byte, 3) +
               " GB/s, rms residual " + fixed(100 * f.rms_relative, 2) + "%";
  }
  if (!profile.empty()) {
    const calibrate::RooflineFit fit =
        calibrate_layers(profile, model, dataset, system_name, s, layers_out);
    s.gpu.gemm_efficiency_max = fit.curve.efficiency_max;
    s.gpu.gemm_half_dim = fit.curve.half_dim;
    comment += "\ngpu: GEMM efficiency e_max " + fixed(fit.curve.efficiency_max, 4) + ", h " +
               fixed(fit.curve.half_dim, 2) + " fitted to " + profile + " (" + model +
               "; per-layer rms residual " + fixed(100 * fit.rms_relative, 1) + "%)";
    if (output.empty())
      std::cout << "(give -o OUT.system to keep the fitted curve in a system file)\n";
  }
  if (!output.empty()) {
    s.name = name.empty() ? s.name + "-calibrated" : name;
    s.validate();
    // what is written must read back: a fit outside the system file's bounds (CPU-timed
    // layers against a GPU's peak: e_max 1e-4) is said now, not by the next predict
    std::ostringstream text;
    calibrate::write_system_file(text, s, comment);
    try {
      std::istringstream back(text.str());
      system::parse_system_file(back, output);
    } catch (const InputError& e) {
      // nothing of a refused calibration stays: the layer times written before go too
      const bool removed = !profile.empty() && std::remove(layers_out.c_str()) == 0;
      throw InputError(std::string("the calibrated system file would not read back (") + e.what() +
                       ": a line of the file it would write)" +
                       (removed ? "; " + layers_out + " removed" : std::string()) +
                       " (were the measurements taken on this system's GPUs and network?)");
    }
    std::ofstream out(output);
    if (!out) throw InputError("-o '" + output + "': cannot write the file");
    out << text.str();
    out.close();  // the buffered bytes' write error shows here, not in the destructor
    if (out.fail()) {
      if (path_status(output).kind == PathKind::file) std::remove(output.c_str());
      throw InputError("-o '" + output + "': write failed");
    }
    std::cout << "wrote " << output << " (system '" << s.name << "')\n";
  }
  return 0;
}

}  // namespace paradise::app
