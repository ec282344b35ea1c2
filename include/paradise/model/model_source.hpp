// One way to name a model everywhere in the CLI: a zoo name, a *.model file, or a
// ParaDL *.net file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "paradise/model/graph.hpp"
#include "paradise/model/paradl_files.hpp"
#include "paradise/model/stats.hpp"

namespace paradise::model {

class ModelSource {
 public:
  /// Zoo name, path to a *.model file, or path to a ParaDL .net file.
  static ModelSource load(std::string_view name_or_path);

  const std::string& name() const { return name_; }
  const Shape& default_input() const { return default_input_; }
  /// True for zoo models and model files; ParaDL .net files have fixed shapes.
  bool reshapeable() const { return graph_.has_value(); }
  /// The ParaDL file behind this model, if it came from one.
  const ParaDlNet* paradl() const { return paradl_ ? &*paradl_ : nullptr; }

  /// Statistics at `input` (default: default_input()). Throws InputError for an input
  /// that does not fit, or for a new input on a fixed-shape ParaDL model.
  ModelStats stats(const std::optional<Shape>& input = std::nullopt) const;

 private:
  std::string name_;
  Shape default_input_;
  std::optional<Graph> graph_;
  std::optional<ParaDlNet> paradl_;
};

}  // namespace paradise::model
