// `paradise sweep`: the options, then the sweep engine (paradise/engine/run_sweep.hpp) on
// every MPI rank.
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "paradise/core/error.hpp"
#include "paradise/engine/run_sweep.hpp"
#include "paradise/mpi/comm.hpp"
#include "paradise/sweep/sweep_file.hpp"

namespace po = boost::program_options;

namespace paradise::app {

int run_sweep(const Args& args) {
  po::options_description desc(
      "paradise sweep SWEEP.ini [-o OUT.h5] [--resume] [--dry-run] [--quiet]");
  std::string file;
  engine::SweepOptions o;
  o.command_line = args;
  desc.add_options()("sweep-file", po::value(&file), "the sweep file (INI)")(
      "output,o", po::value(&o.output), "the HDF5 file to write")(
      "resume", po::bool_switch(&o.resume),
      "continue an interrupted sweep from OUT.h5.tmp and its checkpoint OUT.h5.resume")(
      "checkpoint", po::value(&o.checkpoint_s)->default_value(60),
      "seconds between checkpoints of the output (0: none)")(
      "io-timeout", po::value(&o.io_timeout_s)->default_value(300),
      "seconds the ranks wait for each other after a collective write before the job is "
      "aborted (a rank stuck after an I/O failure elsewhere)")(
      "dry-run", po::bool_switch(&o.dry_run),
      "print the axes, point count, output size and time; evaluate nothing")(
      "quiet", po::bool_switch(&o.quiet), "no progress on stderr");
  po::positional_options_description pos;
  pos.add("sweep-file", 1);
  po::variables_map vm;
  desc.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  if (vm.count("help")) {
    std::cout << "Evaluates every point of a sweep grid.\n\n" << desc << '\n';
    return 0;
  }
  po::notify(vm);
  if (file.empty())  // Boost's "option '--sweep-file' is required" named no usage
    throw InputError("give a sweep file: paradise sweep FILE.ini [-o OUT.h5]");
  engine::check_options(o, file, vm.count("output") > 0);

  const mpi::Environment mpi_environment;
  const auto comm = mpi::Comm::world();
  // Every rank reads and validates the same inputs; only rank 0 reports a bad one.
  std::optional<sweep::SweepFile> sweep_file;
  try {
    sweep_file = sweep::read_sweep_file(file);
  } catch (const InputError&) {
    if (comm.is_root()) throw;
    return 2;
  }
  return engine::run_sweep(*sweep_file, o, comm);
}

}  // namespace paradise::app
