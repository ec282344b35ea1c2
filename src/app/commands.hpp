// Subcommands of the `paradise` CLI. Each parses its own options (Boost.Program_options)
// and returns the process exit code; errors propagate as exceptions to main().
#pragma once

#include <string>
#include <vector>

namespace paradise::app {

using Args = std::vector<std::string>;

int run_models(const Args& args);
int run_datasets(const Args& args);
int run_predict(const Args& args);
int run_systems(const Args& args);
int run_implementations(const Args& args);
int run_sweep(const Args& args);
int run_memlimit(const Args& args);
int run_recommend(const Args& args);
int run_validate(const Args& args);
int run_calibrate(const Args& args);
/// `calibrate --measured`: an implementation profile fitted to measured runs.
int run_calibrate_implementation(const Args& args);

}  // namespace paradise::app
