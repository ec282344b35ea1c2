// `paradise models` and `paradise datasets`: their options, then their reports.
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/model/model_source.hpp"
#include "paradise/report/models.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_models(const Args& args) {
  po::options_description desc(
      "paradise models [--format table|json] [--show MODEL [--input SHAPE]]");
  std::string format = "table";
  std::string show;
  std::string input_text;
  desc.add_options()("format", po::value(&format), "table (default) or json")(
      "show", po::value(&show), "per-layer table of a zoo model, *.model file or ParaDL .net file")(
      "input", po::value(&input_text), "input shape for --show: CxHxW or CxDxHxW");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Lists the built-in CNNs with parameters, forward MACs and the activations "
                     "kept for backward (fp32, per sample).")) {
    return 0;
  }
  if (format != "table" && format != "json")
    throw InputError("--format '" + format + "': expected table or json");
  // given but empty (a variable that was not set): said, not taken for "not given"
  if (vm.count("show") && show.empty())
    throw InputError("--show '': expected a model name or file");
  if (vm.count("input") && input_text.empty())
    throw InputError("--input '': expected CxHxW or CxDxHxW");
  std::optional<model::Shape> input;
  if (!input_text.empty()) {
    if (show.empty()) throw InputError("--input needs --show MODEL");
    input = model::Shape::parse(input_text, {"--input", 0}, "shape");
  }
  if (!show.empty()) {
    report::print_model_layers(std::cout, model::ModelSource::load(show), input, format == "json");
    return 0;
  }
  report::print_models(std::cout, format == "json");
  return 0;
}

int run_datasets(const Args& args) {
  po::options_description desc("paradise datasets");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Lists the built-in datasets (user-defined: --dataset NAME:SAMPLES:CxHxW).")) {
    return 0;
  }
  report::print_datasets(std::cout);
  return 0;
}

}  // namespace paradise::app
