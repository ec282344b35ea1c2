// paradise: the command-line front end. Thin by design: parse, call the library, map
// errors to exit codes (0 ok, 1 internal error, 2 bad input or usage).
#include <boost/program_options/errors.hpp>
#include <csignal>
#include <exception>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "paradise/core/error.hpp"
#include "paradise/core/text.hpp"

namespace {

void usage(std::ostream& out) {
  out << "ParaDiSE: an oracle for distributed CNN training (after ParaDL, Kahira et al. "
         "HPDC'21)\n\n"
         "usage: paradise <command> [options]   (paradise <command> --help for its options;\n"
         "       paradise --version)\n\n"
         "commands:\n"
         "  models     the model zoo as a table or JSON; --show NAME for the per-layer table\n"
         "  datasets   the built-in datasets\n"
         "  systems    the built-in systems\n"
         "  sweep      evaluate a grid of configurations (SWEEP.ini)\n"
         "  memlimit   largest batch and input resolution, fewest GPUs per resolution\n"
         "  predict    time and memory of one configuration (strategy, GPUs, batch)\n"
         "  recommend  every strategy, GPU count and batch ranked by an objective, and why the\n"
         "             others lost\n"
         "  validate   measured runs (CSV) against the projections: accuracy, rank agreement,\n"
         "             anomalies and their likely cause\n"
         "  calibrate  network alpha and beta from nccl-tests / OSU output, per-layer times\n"
         "             from a profile: a calibrated system file\n";
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f, a batch system's) makes a write fail with EFBIG, an error
  // that names the file and removes a partial output, instead of SIGXFSZ killing the
  // process mid-write (POSIX: the signal is sent unless ignored, then the write fails).
  std::signal(SIGXFSZ, SIG_IGN);
  using paradise::app::Args;
  const std::map<std::string, int (*)(const Args&)> commands = {
      {"models", paradise::app::run_models},       {"datasets", paradise::app::run_datasets},
      {"predict", paradise::app::run_predict},     {"systems", paradise::app::run_systems},
      {"sweep", paradise::app::run_sweep},         {"memlimit", paradise::app::run_memlimit},
      {"recommend", paradise::app::run_recommend}, {"validate", paradise::app::run_validate},
      {"calibrate", paradise::app::run_calibrate},
  };
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  if (std::string(argv[1]) == "--version") {
    std::cout << "paradise " << PARADISE_VERSION << '\n';
    return 0;
  }
  const auto it = commands.find(argv[1]);
  if (it == commands.end()) {
    std::cerr << "paradise: unknown command '" << paradise::printable(argv[1], false, 160)
              << "'\n\n";
    usage(std::cerr);
    return 2;
  }
  try {
    return it->second(Args(argv + 2, argv + argc));
  } catch (const paradise::InputError& e) {
    std::cerr << "paradise " << argv[1] << ": error: " << paradise::printable(e.what()) << '\n';
    return 2;
  } catch (const boost::program_options::error& e) {
    std::cerr << "paradise " << argv[1] << ": error: " << paradise::printable(e.what())
              << " (see --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "paradise " << argv[1] << ": internal error: " << paradise::printable(e.what())
              << '\n';
    return 1;
  }
}
