// `paradise implementations`' output: the built-in implementation profiles as a table
// (docs/implementations.md).
#pragma once

#include <ostream>
#include <vector>

#include "paradise/implementation/profile.hpp"

namespace paradise::report {

/// One row per profile: its framework time per step, each kind of exchange's transport, per-call
/// overhead and overlap, and what it is.
void print_implementation_list(std::ostream& out,
                               const std::vector<implementation::Implementation>& impls);

}  // namespace paradise::report
