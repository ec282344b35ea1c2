// `paradise implementations`: its options, then the built-in implementation profiles or
// --show one of them (or a profile file) as the implementation file that reproduces it.
#include <iostream>
#include <string>

#include "commands.hpp"
#include "options.hpp"
#include "paradise/core/error.hpp"
#include "paradise/implementation/catalog.hpp"
#include "paradise/report/implementations.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_implementations(const Args& args) {
  po::options_description desc("paradise implementations [--show NAME|FILE]");
  std::string show;
  desc.add_options()("show", po::value(&show),
                     "one built-in profile or *.impl file in full, as the implementation file "
                     "that reproduces it (a template for your own)");
  po::variables_map vm;
  if (!parse_options(args, desc, vm,
                     "Lists the built-in implementation profiles: how the training code moves "
                     "data and its time per step (others: a *.impl file, "
                     "docs/implementations.md)."))
    return 0;
  if (!vm.count("show")) {
    report::print_implementation_list(std::cout, implementation::builtin_implementations());
    return 0;
  }
  const auto impl =
      named_option("--show", [&] { return implementation::find_implementation(show); });
  std::cout << implementation::implementation_file_text(impl);
  return 0;
}

}  // namespace paradise::app
