// `paradise predict`: one configuration, the full breakdown.
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/core/table.hpp"
#include "paradise/strategy/predict.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

void print_json(const strategy::Prediction& p, const strategy::Config& c) {
  JsonWriter j(std::cout);
  j.begin_object();
  j.key("strategy").value(strategy::kind_name(c.kind));
  j.key("gpus").value(c.gpus);
  j.key("batch").value(c.batch);
  j.key("variant").value(strategy::variant_name(c.variant));
  j.key("status").value(strategy::status_name(p.status));
  j.key("reason").value(p.reason);
  j.key("limiting_factor").value(strategy::limit_name(p.limit));
  j.key("iterations_per_epoch").value(p.iterations_per_epoch);
  j.key("iteration_time_s").value(p.iteration_time_s);
  j.key("epoch_time_s").value(p.epoch_time_s);
  j.key("epoch_compute_s").value(p.epoch_compute_s);
  j.key("epoch_communication_s").value(p.epoch_communication_s);
  j.key("memory_per_gpu_bytes").value(p.memory_per_gpu_bytes);
  j.key("communication").begin_object();
  for (const auto& part : p.communication) {
    j.key(part.name).begin_object();
    j.key("collective").value(part.collective);
    j.key("phase").value(part.phase);
    j.key("gpus").value(part.gpus);
    j.key("epoch_s").value(part.epoch_s);
    j.end_object();
  }
  j.end_object();
  j.key("memory").begin_object();
  for (const auto& part : p.memory) j.key(part.name).value(part.bytes);
  j.end_object();
  j.end_object();
  std::cout << '\n';
}

// One header line and one row: the scalar results, then one column per part.
void print_csv(const strategy::Prediction& p, const strategy::Config& c) {
  std::string header =
      "strategy,gpus,batch,variant,status,reason,limiting_factor,iterations_per_epoch,iteration_"
      "time_s,epoch_time_s,epoch_compute_s,epoch_communication_s,memory_per_gpu_bytes";
  std::ostringstream row;
  row.precision(17);
  std::string reason = p.reason;
  std::replace(reason.begin(), reason.end(), ',', ';');
  row << strategy::kind_name(c.kind) << ',' << c.gpus << ',' << c.batch << ','
      << strategy::variant_name(c.variant) << ',' << strategy::status_name(p.status) << ','
      << reason << ',' << strategy::limit_name(p.limit) << ',' << p.iterations_per_epoch << ','
      << p.iteration_time_s << ',' << p.epoch_time_s << ',' << p.epoch_compute_s << ','
      << p.epoch_communication_s << ',' << p.memory_per_gpu_bytes;
  for (const auto& part : p.communication) {
    header += ",comm:" + std::string(part.name);
    row << ',' << part.epoch_s;
  }
  for (const auto& part : p.memory) {
    header += ",mem:" + std::string(part.name);
    row << ',' << part.bytes;
  }
  std::cout << header << '\n' << row.str() << '\n';
}

void print_table(const strategy::Prediction& p, const strategy::Config& c,
                 const strategy::Workload& w) {
  std::cout << "ParaDiSE prediction (" << strategy::variant_name(c.variant) << " model)\n"
            << "  model     " << w.model.name << " at " << w.model.input.str() << ", "
            << with_commas(w.model.params()) << " parameters\n"
            << "  dataset   " << with_commas(w.dataset_samples) << " samples per epoch\n"
            << "  system    " << w.system.name << " (" << w.system.gpu.name << ")\n"
            << "  strategy  " << strategy::kind_name(c.kind) << " on " << c.gpus
            << " GPUs, global batch " << c.batch << " (" << with_commas(p.iterations_per_epoch)
            << " iterations per epoch)\n"
            << "  compute   " << w.time_source << "\n\n"
            << "status: " << strategy::status_name(p.status);
  if (!p.reason.empty()) std::cout << " (" << p.reason << ")";
  std::cout << "; limited by " << strategy::limit_name(p.limit) << "\n\n";
  TextTable t;
  t.add_column("time per epoch", TextTable::Align::Left);
  t.add_column("collective", TextTable::Align::Left);
  t.add_column("GPUs");
  t.add_column("seconds");
  t.add_column("share");
  const auto share = [&](double s) {
    return fixed(p.epoch_time_s > 0 ? 100 * s / p.epoch_time_s : 0, 1) + "%";
  };
  t.add_row({"compute (forward + backward)", "-", std::to_string(c.gpus),
             fixed(p.epoch_compute_s, 3), share(p.epoch_compute_s)});
  for (const auto& part : p.communication) {
    t.add_row({std::string(part.name) + " [" + std::string(part.phase) + "]",
               std::string(part.collective), std::to_string(part.gpus), fixed(part.epoch_s, 3),
               share(part.epoch_s)});
  }
  t.add_row({"total", "", "", fixed(p.epoch_time_s, 3), "100.0%"});
  t.print(std::cout);
  std::cout << "iteration: " << fixed(p.iteration_time_s * 1e3, 3) << " ms\n\n";
  TextTable m;
  m.add_column("memory per GPU", TextTable::Align::Left);
  m.add_column("bytes");
  m.add_column("", TextTable::Align::Left);
  for (const auto& part : p.memory)
    m.add_row({std::string(part.name), with_commas(static_cast<std::int64_t>(part.bytes)),
               human_bytes(part.bytes)});
  m.add_row({"total", with_commas(static_cast<std::int64_t>(p.memory_per_gpu_bytes)),
             human_bytes(p.memory_per_gpu_bytes)});
  m.print(std::cout);
}

}  // namespace

int run_predict(const Args& args) {
  po::options_description desc(
      "paradise predict --model M --dataset D --system S --strategy K --gpus P --batch B "
      "[options]");
  strategy::WorkloadSpec spec;
  std::string spatial_split = "w";
  std::string kind = "data", variant = "paradl", format = "table", precision = "fp32",
              allreduce = "ring";
  strategy::Config c;
  desc.add_options()("model", po::value(&spec.model)->required(),
                     "zoo name, *.model file or ParaDL .net file")(
      "dataset", po::value(&spec.dataset),
      "dataset name or NAME:SAMPLES:SHAPE (default for .net: its own)")(
      "system", po::value(&spec.system)->default_value("abci"), "built-in system or *.system file")(
      "strategy", po::value(&kind),
      "serial data spatial filter channel pipeline data+filter data+spatial")(
      "gpus", po::value(&c.gpus)->required(), "number of GPUs P")(
      "batch", po::value(&c.batch)->required(), "global mini-batch B")(
      "variant", po::value(&variant), "paradl (default for now) or paradise")(
      "layer-config", po::value(&spec.layer_config), "ParaDL .lc file: which layers are parallel")(
      "time-per-sample", po::value(&spec.time_per_sample_s), "measured FW+BW seconds per sample")(
      "precision", po::value(&precision), "fp32 (activations and weights, 4 bytes)")(
      "p2", po::value(&c.p2), "hybrids: GPUs per group (default: GPUs per node)")(
      "segments", po::value(&c.segments), "pipeline: micro-batches S")(
      "spatial-split", po::value(&spatial_split),
      "spatial: w (ParaDL: the width only) or all (every spatial dimension)")(
      "allreduce", po::value(&allreduce),
      "gradient allreduce: ring (ParaDL), recursive-doubling, rabenseifner, binomial-tree, "
      "double-binary-tree")("fix-paradl-bugs", po::bool_switch(&c.fix_paradl_bugs),
                            "fix ParaDL's code quirks (cost-model-notes §1.9)")(
      "format", po::value(&format), "table, json or csv");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Predicts time and memory per GPU of one training configuration."))
    return 0;
  const auto k = strategy::kind_from_name(kind);
  if (!k)
    throw InputError("--strategy '" + kind +
                     "': expected serial, data, spatial, filter, channel, pipeline, data+filter or "
                     "data+spatial");
  c.kind = *k;
  if (variant != "paradl")
    throw InputError("--variant '" + variant + "': only paradl is implemented so far");
  if (precision != "fp32")
    throw InputError("--precision '" + precision + "': only fp32 is implemented so far");
  if (format != "table" && format != "json" && format != "csv")
    throw InputError("--format '" + format + "': expected table, json or csv");
  const auto algorithm = cost::algorithm_from_name(allreduce);
  if (!algorithm)
    throw InputError("--allreduce '" + allreduce +
                     "': expected ring, recursive-doubling, rabenseifner, binomial-tree or "
                     "double-binary-tree");
  c.gradient_allreduce = *algorithm;
  if (spatial_split != "w" && spatial_split != "all")
    throw InputError("--spatial-split '" + spatial_split + "': expected w or all");
  c.spatial_all_dims = spatial_split == "all";
  if (c.gpus < 1) throw InputError("--gpus '" + std::to_string(c.gpus) + "': must be >= 1");
  if (c.batch < 1) throw InputError("--batch '" + std::to_string(c.batch) + "': must be >= 1");
  const strategy::Workload w = strategy::make_workload(spec);
  const strategy::Prediction p = strategy::predict(w, c);
  if (format == "json") {
    print_json(p, c);
  } else if (format == "csv") {
    print_csv(p, c);
  } else {
    print_table(p, c, w);
  }
  return 0;
}

}  // namespace paradise::app
