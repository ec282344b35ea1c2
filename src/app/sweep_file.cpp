// Sweep files:
//   [sweep]   model, dataset, system, strategy (lists), gpus, batch (lists or ranges),
//             variant (paradl)
//   [output]  storage = full | maps | summary, max_bytes (refuse larger outputs)
#include "sweep_file.hpp"

#include <boost/program_options.hpp>
#include <fstream>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

// The line on which "section.key" is set, for error messages (Boost does not keep it).
int line_of(const std::string& text, const std::string& dotted) {
  const auto dot = dotted.find('.');
  const std::string section = dotted.substr(0, dot), key = dotted.substr(dot + 1);
  std::istringstream in(text);
  std::string line, current;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string_view t = trim(line);
    if (t.starts_with("[")) current = std::string(trim(t.substr(1, t.find(']') - 1)));
    const auto eq = t.find('=');
    if (current == section && eq != std::string_view::npos && trim(t.substr(0, eq)) == key)
      return n;
  }
  return 0;
}

}  // namespace

double bytes_per_point(const std::string& storage) {
  if (storage == "summary") return 0;
  return storage == "full" ? 1 + 8 + 1 + 4 * 8 : 1 + 8;
}

SweepFile read_sweep_file(const std::string& path) {
  SweepFile f;
  f.path = path;
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open sweep file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  f.text = buffer.str();
  std::string model, dataset, system = "abci", strategy, gpus, batch, variant = "paradl";
  po::options_description d;
  d.add_options()("sweep.model", po::value(&model)->required())(
      "sweep.dataset", po::value(&dataset)->required())("sweep.system", po::value(&system))(
      "sweep.strategy", po::value(&strategy)->required())(
      "sweep.gpus", po::value(&gpus)->required())("sweep.batch", po::value(&batch)->required())(
      "sweep.variant", po::value(&variant))("output.storage", po::value(&f.storage))(
      "output.max_bytes", po::value<std::string>());
  po::variables_map vm;
  std::istringstream text(f.text);
  try {
    po::store(po::parse_config_file(text, d, false), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    fail_input({path, line_of(f.text, e.get_option_name())}, e.get_option_name(), "",
               "unknown key");
  } catch (const po::required_option& e) {
    std::string key = e.get_option_name();
    if (key.starts_with("--")) key = key.substr(2);
    fail_input({path, 0}, key, "",
               "missing (every sweep needs model, dataset, strategy, gpus, batch)");
  } catch (const po::error& e) {
    throw InputError(path + ": " + e.what());
  }
  const auto at = [&](const char* key) { return Origin{path, line_of(f.text, key)}; };
  f.spec.models = sweep::parse_names(model, at("sweep.model"), "model");
  f.spec.datasets = sweep::parse_names(dataset, at("sweep.dataset"), "dataset");
  f.spec.systems = sweep::parse_names(system, at("sweep.system"), "system");
  f.spec.strategies = sweep::parse_names(strategy, at("sweep.strategy"), "strategy");
  f.spec.gpus = sweep::parse_int_values(gpus, at("sweep.gpus"), "gpus");
  f.spec.batch = sweep::parse_int_values(batch, at("sweep.batch"), "batch");
  for (auto v : f.spec.gpus) {
    if (v < 1) fail_input(at("sweep.gpus"), "gpus", gpus, "every GPU count must be >= 1");
  }
  for (auto v : f.spec.batch) {
    if (v < 1) fail_input(at("sweep.batch"), "batch", batch, "every batch must be >= 1");
  }
  if (variant != "paradl")
    fail_input(at("sweep.variant"), "variant", variant, "only paradl is implemented so far");
  if (f.storage != "full" && f.storage != "maps" && f.storage != "summary") {
    fail_input(at("output.storage"), "storage", f.storage, "expected full, maps or summary");
  }
  if (vm.count("output.max_bytes")) {
    const auto text_value = vm["output.max_bytes"].as<std::string>();
    f.max_output_bytes = parse_double(text_value, at("output.max_bytes"), "max_bytes");
    if (f.max_output_bytes <= 0)
      fail_input(at("output.max_bytes"), "max_bytes", text_value, "must be > 0");
  }
  return f;
}

}  // namespace paradise::app
