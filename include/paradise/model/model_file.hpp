// ParaDiSE's own model file format (*.model): one layer per line. The grammar is
// documented in docs/models-and-systems.md ("Model files"); errors name the file, line, key and
// value.
#pragma once

#include <iosfwd>
#include <string>

#include "paradise/model/graph.hpp"
#include "paradise/model/shape.hpp"

namespace paradise::model {

struct ModelFile {
  Graph graph;
  Shape default_input;  ///< from the `input` line
};

ModelFile parse_model_file(std::istream& in, const std::string& file_name);
ModelFile read_model_file(const std::string& path);

}  // namespace paradise::model
