// What a sweep is asked to do: the sweep file's content (grid, storage, reduction, Pareto
// fronts, memory-limit searches, limits), read and checked by the sweep module
// (sweep::read_sweep_file) and run by engine::run_sweep.
#pragma once

#include "paradise/sweep/sweep_file.hpp"

namespace paradise::engine {

using sweep::Storage;
using sweep::storage_from_name;
using sweep::storage_name;
using sweep::SweepFile;

}  // namespace paradise::engine
