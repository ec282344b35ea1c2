// `paradise systems`: its options, then the built-in machines or --show one of them or a
// system file in full, as a table, JSON or the system file that reproduces it.
#include <iostream>
#include <string>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/calibrate/system_writer.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/json_writer.hpp"
#include "paradise/report/systems.hpp"
#include "paradise/system/catalog.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_systems(const Args& args) {
  po::options_description desc("paradise systems [--show NAME|FILE] [--format table|json|ini]");
  std::string show, format = "table";
  desc.add_options()("show", po::value(&show),
                     "one built-in system or system file in full: GPU peaks, memory and the "
                     "usable part, GEMM curve, network levels")(
      "format", po::value(&format),
      "table (default), json (SI units) or, with --show, ini: the system file that "
      "reproduces it (a template for your own)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Lists the built-in systems (others: a *.system file, see the README)."))
    return 0;
  if (format != "table" && format != "json" && format != "ini")
    throw InputError("--format '" + format + "': expected table, json or ini");
  if (!vm.count("show")) {
    if (format == "ini")
      throw InputError("--format ini: writes one system's file; name it with --show");
    if (format == "json") {
      JsonWriter j(std::cout);
      j.begin_array();
      for (const auto& s : system::builtin_systems()) report::write_system_json(j, s);
      j.end_array();
      std::cout << '\n';
    } else {
      report::print_system_list(std::cout, system::builtin_systems());
    }
    return 0;
  }
  const system::System s = named_option("--show", [&] { return system::find_system(show); });
  if (format == "json") {
    JsonWriter j(std::cout);
    report::write_system_json(j, s);
    std::cout << '\n';
  } else if (format == "ini") {
    calibrate::write_system_file(std::cout, s,
                                 "system '" + s.name +
                                     "' as paradise reads it (paradise systems "
                                     "--show " +
                                     show + " --format ini)");
  } else {
    report::print_system(std::cout, s);
  }
  return 0;
}

}  // namespace paradise::app
