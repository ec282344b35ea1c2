// `paradise validate`: its options, then validate::evaluate() and its report.
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/report/validate.hpp"
#include "paradise/validate/validate.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_validate(const Args& args) {
  po::options_description desc(
      "paradise validate --measured RUNS.csv [--system S] [--variant paradl|paradise] "
      "[--implementation I] [--threshold 0.25] [--format table|json]");
  std::string measured, system, variant = "paradise", format = "table", implementation;
  const std::string implementation_choice =
      implementation_help("paradise: the implementation of rows without an implementation cell");
  validate::Options o;
  desc.add_options()("measured", po::value(&measured)->required(),
                     "CSV of measured runs (header: model,dataset,system,strategy,gpus,batch,"
                     "precision and measured_iteration_s and/or measured_epoch_s)")(
      "system", po::value(&system), "built-in system or *.system file for every row")(
      "variant", po::value(&variant), "cost model: paradise (default) or paradl")(
      "implementation", po::value(&implementation), implementation_choice.c_str())(
      "threshold", po::value(&o.threshold),
      "relative error beyond which a run is an anomaly (default 0.25)")(
      "format", po::value(&format), "table or json");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Compares measured runs with the projections: accuracy, rank agreement "
                     "and anomalies."))
    return 0;
  const auto v = strategy::variant_from_name(variant);
  if (!v) throw InputError("--variant '" + variant + "': expected paradl or paradise");
  o.variant = *v;
  if (!implementation.empty()) {
    if (o.variant == strategy::Variant::Paradl)
      throw InputError("--implementation '" + implementation +
                       "': the paradl variant is ParaDL's formulas, with no implementation "
                       "profile (use --variant paradise)");
    // refused before any row is read
    named_option("--implementation",
                 [&] { return implementation::find_implementation(implementation); });
    o.implementation = implementation;
  }
  // a relative error: 0.25 is 25%; past 10 (1,000%) it flags nothing a user would ask about
  if (!(o.threshold > 0) || !(o.threshold <= 10)) {
    std::ostringstream given;  // as typed, not std::to_string's six decimals
    given << o.threshold;
    throw InputError("--threshold '" + given.str() +
                     "': expected a relative error > 0 and at most 10 (1,000%)");
  }
  if (format != "table" && format != "json")
    throw InputError("--format '" + format + "': expected table or json");
  std::istringstream in(read_input_file(measured, "measured-runs file"));
  const auto runs = validate::read_runs(in, measured, system);
  const auto rows = validate::evaluate(runs, o);
  const auto summary = validate::summarize(rows);
  if (format == "json") {
    report::print_validation_json(std::cout, rows, summary, o);
  } else {
    report::print_validation_table(std::cout, rows, summary, o, measured);
  }
  return 0;
}

}  // namespace paradise::app
