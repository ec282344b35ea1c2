#include "paradise/model/model_source.hpp"

#include <sstream>

#include "paradise/core/error.hpp"
#include "paradise/core/path.hpp"
#include "paradise/core/text.hpp"
#include "paradise/model/model_file.hpp"
#include "paradise/model/zoo.hpp"

namespace paradise::model {

ModelSource ModelSource::load(std::string_view name_or_path) {
  ModelSource m;
  const std::string spec(name_or_path);
  for (const auto& e : zoo()) {
    if (e.name == spec) {
      m.name_ = e.name;
      m.default_input_ = e.default_input;
      m.graph_ = build_zoo_model(spec);
      return m;
    }
  }
  const PathStatus at = path_status(spec);
  if (at.kind == PathKind::directory) throw InputError(spec + ": is a directory, not a model file");
  if (at.kind == PathKind::unreachable)
    throw InputError(spec + ": cannot open the model file (" + at.why + ")");
  // a path (a '/', or a model file's extension) that is not there: say so, not "unknown"
  const bool path_like = spec.find('/') != std::string::npos || spec.ends_with(".model") ||
                         spec.find(".net") != std::string::npos;
  if (at.kind == PathKind::missing && path_like) throw InputError(spec + ": no such model file");
  if (at.kind != PathKind::file && at.kind != PathKind::special)
    zoo_entry(spec);  // throws: lists the zoo
  // read once, then probed and parsed from memory: a pipe (<(...), /dev/stdin) has no
  // second reading
  std::string bytes = read_input_file(spec, "model file");  // bounded, without its BOM
  std::istringstream probe(bytes);
  std::string first;
  while (std::getline(probe, first) && (trim(first).empty() || trim(first).front() == '#')) {
  }
  std::istringstream text(std::move(bytes));
  // ParaDL's format by its first line, or by its extension (so that a .net file that lacks
  // its Dataset| line is told what a .net file needs, not what a .model file does)
  const std::string file = spec.substr(spec.find_last_of('/') + 1);
  const std::string extension =
      file.find('.') == std::string::npos ? "" : file.substr(file.find_last_of('.') + 1);
  if (trim(first).starts_with("Dataset|") || extension == "net" ||
      extension.starts_with("net_")) {  // ParaDL's .net and .net_sc
    m.paradl_ = parse_paradl_net(text, spec);
    m.name_ = m.paradl_->stats.name;
    m.default_input_ = m.paradl_->stats.input;
    return m;
  }
  ModelFile f = parse_model_file(text, spec);
  m.name_ = f.graph.name();
  m.default_input_ = f.default_input;
  m.graph_ = std::move(f.graph);
  return m;
}

ModelStats ModelSource::stats(const std::optional<Shape>& input) const {
  if (graph_) return analyze(*graph_, input.value_or(default_input_));
  if (input && !(*input == default_input_)) {
    throw InputError("model '" + name_ + "' comes from a ParaDL .net file with fixed shapes (" +
                     default_input_.str() + "); it cannot be re-shaped to " + input->str());
  }
  return paradl_->stats;
}

}  // namespace paradise::model
