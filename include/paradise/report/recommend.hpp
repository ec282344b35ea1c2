// `paradise recommend`'s output: the ranked configurations, why the other strategies lost
// and, when nothing fits, what would, as a table or JSON.
#pragma once

#include <ostream>
#include <string>

#include "paradise/recommend/recommend.hpp"

namespace paradise::report {

/// The header (model, system, search, objective, settings), the ranking's table, the "why
/// not" lines and the "what would fit" lines.
void print_recommendation_table(std::ostream& out, const strategy::Workload& w,
                                const strategy::Config& c, const recommend::Search& s,
                                const recommend::Recommendation& r);

/// The same as one JSON object; `dataset` as the command line gave it.
void print_recommendation_json(std::ostream& out, const strategy::Workload& w,
                               const strategy::Config& c, const recommend::Search& s,
                               const recommend::Recommendation& r, const std::string& dataset);

}  // namespace paradise::report
