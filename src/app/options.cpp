#include "options.hpp"

#include <iostream>
#include <string>
#include <vector>

#include "paradise/core/error.hpp"

namespace paradise::app {

bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis) {
  desc.add_options()("help,h", "show this help");
  // no positional arguments: a stray word (an unquoted "*2") is an error, not ignored
  namespace po = boost::program_options;
  const po::positional_options_description none;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(none).run(), vm);
  } catch (const po::too_many_positional_options_error&) {
    // name the word: the same parse, the unknown collected, the first one not an option
    const auto loose = po::command_line_parser(args).options(desc).allow_unregistered().run();
    for (const auto& word : po::collect_unrecognized(loose.options, po::include_positional)) {
      if (!word.starts_with("-"))
        throw InputError("unexpected argument '" + word +
                         "' (options are --name value; quote a value with spaces)");
    }
    throw;
  }
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
