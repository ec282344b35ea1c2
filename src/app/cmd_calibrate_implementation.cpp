// `paradise calibrate --measured RUNS.csv --implementation BASE -o OUT.impl`: an
// implementation profile fitted to measured runs (validate::fit_implementation), its fit and
// each row's residual and held-out residual printed, the profile written as an *.impl file.
#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <utility>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/atomic_file.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/table.hpp"
#include "paradise/core/text.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/validate/fit.hpp"

namespace po = boost::program_options;

namespace paradise::app {
namespace {

std::string signed_percent(std::optional<double> projected, std::optional<double> measured) {
  if (!projected || !measured || *measured <= 0) return "-";
  const double e = 100 * (*projected - *measured) / *measured;
  return (e >= 0 ? "+" : "") + fixed(e, 1) + "%";
}

std::string decided_mark(validate::Decided d) {
  switch (d) {
    case validate::Decided::Fitted:
      return "";
    case validate::Decided::Kept:
      return " (kept)";
    case validate::Decided::AtLeast:
      return " (at least)";
  }
  return "";
}

void print_parameters(const validate::ImplementationFit& fit) {
  TextTable t;
  t.add_column("parameter", TextTable::Align::Left);
  t.add_column("value");
  t.add_column("unit", TextTable::Align::Left);
  t.add_column("bounds", TextTable::Align::Left);
  for (const auto& p : fit.parameters)
    t.add_row({p.name, fixed(p.value, 4) + decided_mark(p.decided), p.unit,
               "[" + fixed(p.lo, 2) + ", " + fixed(p.hi, 0) + "]"});
  t.print(std::cout);
  std::cout << "(kept: the base profile's value; no row's projection moves with it, or, for a "
               "limit, none reaches it at the fit)\n"
               "(at least: a limit the base profile's value reaches and the rows' best fit does "
               "not; the least value at which no row waits for it, written as the fit)"
               "\n\n";
}

void print_rows(const validate::ImplementationFit& fit) {
  TextTable t;
  for (const char* c : {"line", "strategy", "gpus", "batch", "basis"}) t.add_column(c);
  for (const char* c : {"measured s", "fitted s", "residual", "held-out s", "held-out residual"})
    t.add_column(c);
  for (std::size_t i = 0; i < fit.rows.size(); ++i) {
    const auto& r = fit.rows[i];
    const auto& m = *r.run;
    const auto& h = fit.held_out_s[i];
    t.add_row({std::to_string(m.line), m.strategy, std::to_string(m.gpus), std::to_string(m.batch),
               r.basis, r.measured_s ? fixed(*r.measured_s, 4) : "-",
               r.projected_s ? fixed(*r.projected_s, 4) : "-",
               signed_percent(r.projected_s, r.measured_s), h ? fixed(*h, 4) : "-",
               signed_percent(h, r.measured_s)});
  }
  t.print(std::cout);
  const auto mean = [](const std::optional<double>& a) { return a ? fixed(*a, 3) : "-"; };
  std::cout << "mean accuracy (1 - |projected - measured| / measured): fitted "
            << mean(fit.mean_accuracy) << ", held out (each GPU count projected by a fit to "
            << "the others) " << mean(fit.held_out_mean_accuracy) << "\n";
}

}  // namespace

int run_calibrate_implementation(const Args& args) {
  po::options_description desc(
      "paradise calibrate --measured RUNS.csv --implementation BASE -o OUT.impl [--name N] "
      "[--system S]");
  std::string measured, base, output, name, system;
  const std::string base_help = implementation_help("the profile to start from");
  desc.add_options()("measured", po::value(&measured)->required(),
                     "CSV of measured runs (validate's format; compute and communication "
                     "parts used where given)")("implementation", po::value(&base)->required(),
                                                base_help.c_str())(
      "output,o", po::value(&output)->required(), "the fitted *.impl file")(
      "name", po::value(&name), "the fitted profile's name (default BASE-calibrated)")(
      "system", po::value(&system), "built-in system or *.system file for every row");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Fits an implementation profile's overheads, staging rate and split-layer "
                     "efficiency to measured runs; writes an implementation file."))
    return 0;
  // an input is never overwritten: the runs, the base profile's file, the system file
  for (const auto& [option, input] :
       {std::pair{"--measured", measured}, std::pair{"--implementation", base},
        std::pair{"--system", system}}) {
    std::error_code ec;
    if (!input.empty() && (output == input || std::filesystem::equivalent(output, input, ec)))
      throw InputError("-o '" + output + "': is the " + std::string(option) +
                       " file; give another path");
  }
  const auto start =
      named_option("--implementation", [&] { return implementation::find_implementation(base); });
  std::istringstream in(read_input_file(measured, "measured-runs file"));
  const auto runs = validate::read_runs(in, measured, system);
  const std::string fitted_name = name.empty() ? start.name + "-calibrated" : name;
  const auto fit = validate::fit_implementation(runs, start, fitted_name);
  std::cout << "ParaDiSE implementation calibration of '" << start.name << "' on " << measured
            << ": " << runs.size() << " runs\n\n";
  print_parameters(fit);
  print_rows(fit);
  implementation::Implementation out = fit.profile;
  out.description = "fitted by paradise calibrate to " + measured + " from " + start.name;
  write_file_atomically(output, implementation::implementation_file_text(out),
                        "implementation file");
  std::cout << "wrote " << output << " (--implementation " << output << ")\n";
  return 0;
}

}  // namespace paradise::app
