// `paradise validate`'s output: each measured run against its projection, the accuracy per
// strategy and overall, the rank agreement and the anomalies, as a table or JSON.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "paradise/validate/validate.hpp"

namespace paradise::report {

/// The table of runs, then the summary; `file` names the measured-runs file.
void print_validation_table(std::ostream& out, const std::vector<validate::RowResult>& rows,
                            const validate::Summary& s, const validate::Options& o,
                            const std::string& file);
void print_validation_json(std::ostream& out, const std::vector<validate::RowResult>& rows,
                           const validate::Summary& s, const validate::Options& o);

}  // namespace paradise::report
