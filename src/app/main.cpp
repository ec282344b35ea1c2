// paradise: the command-line front end. Thin by design: parse, call the library, map
// errors to exit codes (0 ok, 1 internal error, 2 bad input or usage).
#include <boost/program_options/errors.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <string>

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
         "  implementations\n"
         "             the built-in implementation profiles (how training code moves data)\n"
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

// A launch count from the process manager's environment (MPICH's Hydra and Slurm's PMI:
// PMI_RANK/PMI_SIZE; Open MPI: OMPI_COMM_WORLD_RANK/SIZE), read without linking MPI.
struct Launch {
  long rank = 0;
  long size = 1;
};

long env_number(const char* name, long fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' ? value : fallback;
}

Launch launch_from_environment() {
  for (const auto& [rank, size] : {std::pair{"PMI_RANK", "PMI_SIZE"},
                                   std::pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}}) {
    const long n = env_number(size, 1);
    if (n > 1) return {env_number(rank, 0), n};
  }
  return {};
}

// Commands other than sweep answer one question: under mpiexec -n N they would run N times
// (N JSON documents, N writers of calibrate -o). Refused, by the first rank only.
bool refused_under_mpi(const std::string& command) {
  const Launch launch = launch_from_environment();
  if (command == "sweep" || launch.size <= 1) return false;
  if (launch.rank == 0) {
    std::cerr << "paradise " << command << ": runs on one process; it was started as rank "
              << launch.rank << " of " << launch.size
              << " (under mpiexec?) - run it without mpiexec, or use `paradise sweep` for MPI "
                 "runs\n";
  }
  return true;
}

// The output is checked once written: a full disk or /dev/full makes a write fail, which a
// stream only records (POSIX write(2): ENOSPC). Exit 2 with the cause instead of 0.
int checked_stdout(const std::string& command, int exit_code) {
  const bool failed_before = !std::cout || std::ferror(stdout) != 0;
  const int errno_before = errno;
  errno = 0;
  std::cout.flush();
  const bool failed =
      failed_before || !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (!failed) return exit_code;
  const int cause = errno != 0 ? errno : errno_before;
  std::cerr << "paradise" << (command.empty() ? "" : " " + command)
            << ": cannot write the output to stdout: "
            << (cause != 0 ? std::strerror(cause) : "an I/O error") << '\n';
  return exit_code == 0 ? 2 : exit_code;
}

int run_command(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  const int exit_code = run_command(argc, argv);
  return checked_stdout(argc >= 2 ? paradise::printable(argv[1], false, 160) : "", exit_code);
}

namespace {

int run_command(int argc, char** argv) {
  // A file-size limit (ulimit -f, a batch system's) makes a write fail with EFBIG, an error
  // that names the file and removes a partial output, instead of SIGXFSZ killing the
  // process mid-write (POSIX: the signal is sent unless ignored, then the write fails).
  std::signal(SIGXFSZ, SIG_IGN);
  using paradise::app::Args;
  const std::map<std::string, int (*)(const Args&)> commands = {
      {"models", paradise::app::run_models},
      {"datasets", paradise::app::run_datasets},
      {"predict", paradise::app::run_predict},
      {"systems", paradise::app::run_systems},
      {"sweep", paradise::app::run_sweep},
      {"memlimit", paradise::app::run_memlimit},
      {"recommend", paradise::app::run_recommend},
      {"validate", paradise::app::run_validate},
      {"calibrate", paradise::app::run_calibrate},
      {"implementations", paradise::app::run_implementations},
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
  if (refused_under_mpi(it->first)) return 2;
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

}  // namespace
