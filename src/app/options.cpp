#include "options.hpp"

#include <iostream>

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

}  // namespace paradise::app
