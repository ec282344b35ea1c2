// ParaDL's input files (github.com/TruongThaoNguyen/paraDL-analysis, model/):
//  *.net  "NAME|x dims|w dims|y dims|t" per layer with fixed shapes and the measured
//         seconds per sample t (docs/cost-model.md §paradl-compute);
//  *.lc   "NAME|0/1" per layer: 1 = the strategy parallelises this layer.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "paradise/model/stats.hpp"

namespace paradise::model {

struct ParaDlNet {
  std::string dataset;       ///< line "Dataset|NAME"
  std::int64_t samples = 0;  ///< first number of line "Input|D x C x ..."
  ModelStats stats;          ///< layers with ParaDL's shapes, |w| and measured time
  double measured_time_per_sample_s() const;
};

ParaDlNet parse_paradl_net(std::istream& in, const std::string& file_name);
ParaDlNet read_paradl_net(const std::string& path);

/// One flag per layer of `model`, in order; the names must match the model's layers.
std::vector<bool> parse_layer_config(std::istream& in, const std::string& file_name,
                                     const ModelStats& model);
std::vector<bool> read_layer_config(const std::string& path, const ModelStats& model);

}  // namespace paradise::model
