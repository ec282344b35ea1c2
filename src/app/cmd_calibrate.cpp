// `paradise calibrate`: its options and the files' checks, then report::calibrate_network(),
// report::calibrate_layers() and the calibrated system file.

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/report/calibrate.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

using report::MeasurementSource;

/// "FILE:LEVEL[:GPUS]" (split from the right, so that FILE may hold ':').
MeasurementSource parse_source(const std::string& option, const std::string& text) {
  MeasurementSource s{option, text, "", "", 0};
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

struct CalibrateOptions {
  std::string system_name, output, name, profile, model, dataset, layers_out;
  std::vector<std::string> nccl, osu;
  bool default_layers_out = false;  ///< layers_out is MODEL-layer-times.csv, not given
};

void describe(po::options_description& desc, CalibrateOptions& o) {
  desc.add_options()("system", po::value(&o.system_name)->required(),
                     "built-in system or *.system file to calibrate")(
      "nccl", po::value(&o.nccl)->composing(),
      "nccl-tests output FILE for network level LEVEL (GPUS: the run's GPU count if the output "
      "lacks '#  Rank' lines); repeatable")(
      "osu", po::value(&o.osu)->composing(),
      "OSU micro-benchmarks output FILE for LEVEL (GPUS: required for collectives); repeatable")(
      "output,o", po::value(&o.output), "the calibrated system file to write")(
      "name", po::value(&o.name), "the calibrated system's name (default: NAME-calibrated)")(
      "profile", po::value(&o.profile),
      "per-layer times CSV (analysis/profile_layers.py): fit the GEMM efficiency curve, "
      "write a layer-times CSV")("model", po::value(&o.model),
                                 "the model the profile is of (zoo name or model file)")(
      "dataset", po::value(&o.dataset), "dataset for the model's input (default: the model's own)")(
      "layer-times-out", po::value(&o.layers_out),
      "the layer-times CSV to write (default: MODEL-layer-times.csv)");
}

/// What to calibrate and where to write it, checked; sets the default --layer-times-out.
void check_options(const po::variables_map& vm, CalibrateOptions& o) {
  if (o.nccl.empty() && o.osu.empty() && o.profile.empty())
    throw InputError("nothing to calibrate: give --nccl, --osu or --profile");
  if ((!o.nccl.empty() || !o.osu.empty()) && o.output.empty())
    throw InputError("-o OUT.system is required with --nccl or --osu");
  if (!o.profile.empty() && o.model.empty()) throw InputError("--profile needs --model");
  // the name goes into the file's "name = ..." line: empty it was taken as the default,
  // and '#' or ';' would start a comment there
  const std::string& name = o.name;
  if (vm.count("name") && (trim(name).empty() || trim(name) != name ||
                           name.find_first_of("#;\n\r") != std::string::npos))
    throw InputError("--name '" + printable(name, false, 160) +
                     "': expected a non-empty name without surrounding spaces, '#', ';' or "
                     "line breaks");
  o.default_layers_out = !o.profile.empty() && o.layers_out.empty();
  if (o.default_layers_out) {  // the default, before the checks below
    std::string stem = o.model.substr(o.model.find_last_of('/') + 1);
    stem = stem.substr(0, stem.find('.'));
    o.layers_out = stem + "-layer-times.csv";
  }
  // the system file is written last: a path that cannot be written is said before any
  // other file (the layer times) is
  if (!o.output.empty()) {
    // written through a stream, not replaced: a device (-o /dev/stdout) takes it too
    if (const std::string why = why_unwritable(o.output);
        !why.empty() && path_status(o.output).kind != PathKind::special)
      throw InputError("-o '" + o.output + "': cannot write the file (" + why + ")");
  }
  if (!o.output.empty() && !o.layers_out.empty()) {
    std::error_code ec;
    if (o.output == o.layers_out || std::filesystem::equivalent(o.output, o.layers_out, ec))
      throw InputError("-o '" + o.output + "' and --layer-times-out '" + o.layers_out +
                       "': the same file (the system file would replace the layer times)");
  }
}

/// No output replaces a measurement or the model it is of (-o over the nccl-tests output
/// destroyed it); the --system file may be calibrated in place (read before).
void check_no_input_replaced(const CalibrateOptions& o,
                             const std::vector<MeasurementSource>& sources) {
  std::vector<std::pair<std::string, std::string>> inputs;  // option, file
  inputs.reserve(sources.size() + 2);
  for (const auto& src : sources) inputs.emplace_back(src.option, src.file);
  if (!o.profile.empty()) inputs.emplace_back("--profile", o.profile);
  if (path_status(o.model).kind == PathKind::file) inputs.emplace_back("--model", o.model);
  for (const auto& [out_option, out_path] :
       {std::pair<std::string, std::string>{"-o", o.output}, {"--layer-times-out", o.layers_out}}) {
    if (out_path.empty()) continue;
    for (const auto& [in_option, in_path] : inputs) {
      std::error_code ec;
      if (out_path == in_path || std::filesystem::equivalent(out_path, in_path, ec)) {
        std::string message = out_option;
        message.append(" '").append(out_path).append("' and ").append(in_option);
        message.append(" '").append(in_path);
        message += "': the same file (the output would replace the input)";
        if (out_option == "--layer-times-out" && o.default_layers_out)
          message += "; that is the default --layer-times-out, MODEL-layer-times.csv: give another";
        throw InputError(message);
      }
    }
  }
}

}  // namespace

int run_calibrate(const Args& args) {
  // measured runs calibrate an implementation profile, not a system
  if (std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a == "--measured" || a.starts_with("--measured=");
      }))
    return run_calibrate_implementation(args);
  po::options_description desc(
      "paradise calibrate --system S [--nccl FILE:LEVEL[:GPUS]]... [--osu FILE:LEVEL[:GPUS]]... "
      "[-o OUT.system] [--profile LAYERS.csv --model M [--layer-times-out FILE]]");
  CalibrateOptions o;
  describe(desc, o);
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Fits network alpha and beta to collective benchmarks and the GEMM efficiency "
                     "curve to per-layer times; writes a calibrated system file."))
    return 0;
  system::System s = system_option(o.system_name);
  check_options(vm, o);
  std::vector<MeasurementSource> sources;
  for (const auto& n : o.nccl) sources.push_back(parse_source("--nccl", n));
  for (const auto& n : o.osu) sources.push_back(parse_source("--osu", n));
  check_no_input_replaced(o, sources);
  std::string comment = "calibrated from system '" + s.name + "' by paradise calibrate";
  comment += report::calibrate_network(std::cout, s, sources);
  if (!o.profile.empty()) {
    const calibrate::RooflineFit fit = report::calibrate_layers(
        std::cout, o.profile, o.model, o.dataset, o.system_name, s, o.layers_out);
    s.gpu.gemm_efficiency_max = fit.curve.efficiency_max;
    s.gpu.gemm_half_dim = fit.curve.half_dim;
    s.gpu.class_efficiency_max = {};     // the measured curve replaces the built-in fits
    if (fit.conv3x3_efficiency_max > 0)  // and its 3x3 convolutions' own, at their precision
      s.gpu.class_efficiency_max[static_cast<std::size_t>(system::GemmClass::Conv3x3)]
                                [fit.precision_index] = fit.conv3x3_efficiency_max;

    comment += "\ngpu: GEMM efficiency e_max " + fixed(fit.curve.efficiency_max, 4) + ", h " +
               fixed(fit.curve.half_dim, 2) +
               (fit.conv3x3_efficiency_max > 0
                    ? ", 3x3 stride-1 e_max " + fixed(fit.conv3x3_efficiency_max, 4)
                    : "") +
               " fitted to " + o.profile + " (" + o.model + "; per-layer rms residual " +
               fixed(100 * fit.rms_relative, 1) + "%)";
    if (o.output.empty())
      std::cout << "(give -o OUT.system to keep the fitted curve in a system file)\n";
  }
  if (!o.output.empty()) {
    s.name = o.name.empty() ? s.name + "-calibrated" : o.name;
    report::write_calibrated_system(std::cout, s, comment, o.output,
                                    o.profile.empty() ? "" : o.layers_out);
  }
  return 0;
}

}  // namespace paradise::app
