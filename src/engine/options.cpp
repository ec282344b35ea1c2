// The engine's options checked before MPI starts (run_sweep.hpp).
#include <cmath>
#include <filesystem>
#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/engine/run_sweep.hpp"

namespace paradise::engine {
namespace {

std::string shown(double v) {  // as typed, mostly: -1, 0.5, inf (not -1.000000)
  std::ostringstream text;
  text << v;
  return text.str();
}

}  // namespace

void check_options(const SweepOptions& o, const std::string& sweep_path, bool output_given) {
  if (o.resume && o.output.empty())
    throw InputError("--resume needs -o OUT.h5 (the interrupted output)");
  // the ranks need a moment to agree after a write; inf would wait forever on a stuck rank
  if (!(o.io_timeout_s >= 1) || !std::isfinite(o.io_timeout_s))
    throw InputError("--io-timeout " + shown(o.io_timeout_s) +
                     ": must be a number of seconds >= 1");
  if (!(o.checkpoint_s >= 0) || !std::isfinite(o.checkpoint_s))
    throw InputError("--checkpoint " + shown(o.checkpoint_s) +
                     ": must be a number of seconds >= 0");
  if (output_given && o.output.empty())
    throw InputError("-o '': expected the path of the output file (OUT.h5)");
  // the output replaces its path at the end: never the sweep file itself
  std::error_code same_error;
  if (!o.output.empty() && std::filesystem::equivalent(sweep_path, o.output, same_error))
    throw InputError("-o " + o.output + ": is the sweep file " + sweep_path +
                     " (it would be overwritten)");
}

}  // namespace paradise::engine
