// Shared Boost.Program_options helpers of the CLI.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "paradise/core/error.hpp"
#include "paradise/implementation/profile.hpp"
#include "paradise/model/convergence.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/workload.hpp"
#include "paradise/system/system.hpp"

namespace paradise::app {

/// `load()`, its InputError named after the option that gave the value ("--system: unknown
/// system 'x'").
template <class Load>
auto named_option(std::string_view option, Load&& load) -> decltype(load()) {
  try {
    return load();
  } catch (const InputError& e) {
    throw InputError(std::string(option) + ": " + e.what());
  }
}

/// Adds --help, parses `args`; prints help and returns false when asked for it.
bool parse_options(const Args& args, boost::program_options::options_description& desc,
                   boost::program_options::variables_map& vm, const char* synopsis);

/// The training run's settings besides strategy, GPUs and batch that predict, recommend and
/// memlimit share (paradise variant only): arithmetic precision, optimizer, ZeRO stage and
/// activation recomputation (strategy::Config::precision and Policies).
struct TrainingOptions {
  std::string precision, optimizer = "momentum";  ///< precision "": the GPU's default
  int zero = 0;
  bool recompute = false;
  std::int64_t eval_samples = 0;
  std::string implementation;  ///< --implementation as given; "": the default
  /// The profile it names (apply_training_options), which a Config's name views.
  implementation::Implementation resolved{std::string(implementation::kDefaultName), "",
                                          implementation::kPytorchNccl};
};
/// Adds --precision, --optimizer, --zero, --recompute, --eval-samples and --implementation.
void add_training_options(boost::program_options::options_description& desc, TrainingOptions& t);

/// An --implementation option's help: `what`, then the choices, "a built-in (NAMES; the first
/// is the default) or an *.impl file".
std::string implementation_help(const std::string& what);
/// Checks them and sets c.precision and c.policies (c.variant set before): InputError naming
/// the option and value; under the paradl variant, which has none of them, any given option
/// is refused rather than ignored.
void apply_training_options(const boost::program_options::variables_map& vm, TrainingOptions& t,
                            strategy::Config& c);

/// Adds --layer-config, --time-per-sample and --layer-times (what parametrises the model's
/// compute by measurements) to `desc`.
void add_measured_compute_options(boost::program_options::options_description& desc,
                                  strategy::WorkloadSpec& spec);

/// Adds --epochs-to-target (predict, recommend).
void add_epochs_option(boost::program_options::options_description& desc, std::string& text);
/// The epochs to target: --epochs-to-target as given, else the built-in model of the model
/// on the dataset at its own input (none at another --resolution), else nullopt.
std::optional<model::Convergence> epochs_to_target(const std::string& given,
                                                   const strategy::WorkloadSpec& spec,
                                                   bool resized);

/// The system --system names; InputError with the option's name before the loader's message.
system::System system_option(const std::string& name);

/// What needs the workload: c.precision set to its default_precision when --precision was not
/// given (c.precision_by_default, set by apply_training_options); InputError when the
/// implementation needs a host link the system does not give.
void resolve_workload_settings(strategy::Config& c, const strategy::Workload& w);

/// Adds --spatial-split (w, hw, all or auto) to `desc`.
void add_spatial_split_option(boost::program_options::options_description& desc, std::string& text);
/// --spatial-split's `text`: "" the variant's default (paradise auto, paradl w); InputError
/// naming the option and value unless w, hw, all or auto.
strategy::SpatialSplit spatial_split_option(const std::string& text, strategy::Variant v);

/// --p2 and --segments as written ("": not given).
struct CountOptions {
  std::string p2, segments;
};
/// Adds --p2 N|auto and --segments N|auto to `desc`; `defaults` says what leaving them out
/// means.
void add_count_options(boost::program_options::options_description& desc, CountOptions& o,
                       const std::string& defaults);
/// The count an option's `text` gives: `fallback` when not given, strategy::kSearched for
/// "auto"; InputError naming the option and value unless a whole number >= 1 or auto.
std::int64_t count_option(const std::string& option, const std::string& text,
                          std::int64_t fallback);

/// --p2 and --segments into `c`, `fallback` where not given (0: the defaults; auto in
/// recommend's and memlimit's searches under the paradise variant); a given one that none of
/// `kinds` (`strategies`, as written) has is refused.
void apply_count_options(const boost::program_options::variables_map& vm, const CountOptions& o,
                         const std::vector<strategy::Kind>& kinds, const std::string& strategies,
                         std::int64_t fallback, strategy::Config& c);

/// Adds --resolution SIDE to `desc`: every spatial extent of the dataset's samples set to
/// SIDE (a square, or a cube for 3-D data), as a sweep's resolution axis does.
/// And --resolution-samples: fixed (the dataset's count, default) or voxels (the same voxels
/// per epoch), as a sweep's resolution_samples.
void add_resolution_option(boost::program_options::options_description& desc, std::int64_t& side,
                           std::string& samples);
/// The workload of `spec`, re-sized to --resolution when given (sweep::ResolutionFamily, the
/// sweep's rule); InputError naming the option and value when the model cannot take it.
strategy::Workload workload_at_resolution(const strategy::WorkloadSpec& spec,
                                          const boost::program_options::variables_map& vm,
                                          std::int64_t side, const std::string& samples);

}  // namespace paradise::app
