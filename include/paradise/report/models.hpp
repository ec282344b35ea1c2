// `paradise models` and `paradise datasets`' output: the zoo, one model's layers, the
// built-in datasets.
#pragma once

#include <optional>
#include <ostream>

#include "paradise/model/model_source.hpp"
#include "paradise/model/shape.hpp"

namespace paradise::report {

/// The zoo: parameters, forward MACs and FLOPs, activations kept for backward (fp32, per
/// sample), as a table or JSON.
void print_models(std::ostream& out, bool json);
/// One model's per-layer table (or JSON) at `input` (its own when not given).
void print_model_layers(std::ostream& out, const model::ModelSource& src,
                        const std::optional<model::Shape>& input, bool json);
/// The built-in datasets as a table.
void print_datasets(std::ostream& out);

}  // namespace paradise::report
