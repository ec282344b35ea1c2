#include "options.hpp"

#include <iostream>

#include "paradise/core/error.hpp"

namespace paradise::app {

bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis) {
  desc.add_options()("help,h", "show this help");
  boost::program_options::store(
      boost::program_options::command_line_parser(args).options(desc).run(), vm);
  if (vm.count("help")) {
    std::cout << synopsis << "\n\n" << desc << '\n';
    return false;
  }
  boost::program_options::notify(vm);
  return true;
}

void add_spatial_split_option(boost::program_options::options_description& desc,
                              std::string& text) {
  desc.add_options()(
      "spatial-split", boost::program_options::value(&text),
      "spatial and data+spatial's groups: w (ParaDL: the width only) or all (every spatial "
      "dimension; data+spatial: paradise variant only)");
}

bool spatial_all_dims(const std::string& text) {
  if (text != "w" && text != "all")
    throw InputError("--spatial-split '" + text + "': expected w or all");
  return text == "all";
}

}  // namespace paradise::app
