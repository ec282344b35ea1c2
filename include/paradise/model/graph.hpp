// A CNN as a directed acyclic graph of layers in topological order, with builder
// helpers that the zoo and the model-file parser use.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "paradise/model/layer.hpp"

namespace paradise::model {

class Graph {
 public:
  /// `spatial_rank`: 1, 2 or 3 spatial dimensions of the input sample.
  Graph(std::string name, int spatial_rank);

  const std::string& name() const { return name_; }
  int spatial_rank() const { return spatial_rank_; }
  const std::vector<Layer>& layers() const { return layers_; }

  /// Appends a layer; its inputs must be earlier layers and its name unique.
  int add(Layer layer);
  /// Index of the layer with that name, or -1.
  int find(std::string_view name) const;

  // Builder helpers: each appends one layer and returns its index.
  int input();
  int conv(int x, std::string name, std::int64_t out, std::int64_t k, std::int64_t s = 1,
           std::int64_t p = 0, bool bias = false, std::int64_t groups = 1);
  int conv_transpose(int x, std::string name, std::int64_t out, std::int64_t k, std::int64_t s,
                     bool bias = true);
  int max_pool(int x, std::string name, std::int64_t k, std::int64_t s, std::int64_t p = 0,
               bool ceil_mode = false);
  int avg_pool(int x, std::string name, std::int64_t k, std::int64_t s, std::int64_t p = 0);
  int adaptive_avg_pool(int x, std::string name, std::int64_t out = 1);
  int dense(int x, std::string name, std::int64_t out, bool bias = true);
  int batch_norm(int x, std::string name);
  int act(int x, std::string name, Activation a = Activation::ReLU, bool inplace = true);
  int add(std::vector<int> xs, std::string name);
  int concat(std::vector<int> xs, std::string name);
  int flatten(int x, std::string name);
  int dropout(int x, std::string name);
  int loss(int x, std::string name = "loss");
  int upsample(int x, std::string name, std::int64_t scale,
               UpsampleMode mode = UpsampleMode::Nearest);
  int group_norm(int x, std::string name, std::int64_t groups, bool affine = true);
  int instance_norm(int x, std::string name, bool affine = true);
  int layer_norm(int x, std::string name, bool affine = true);
  /// x times the per-channel s (squeeze-and-excitation): x [C, spatial], s [C, 1..].
  int channel_scale(int x, int s, std::string name);
  /// Stochastic depth (Huang et al. 2016): the residual branch dropped per sample.
  int stochastic_depth(int x, std::string name);
  /// A concatenation with the larger inputs centre-cropped to the smallest (U-Net).
  int crop_concat(std::vector<int> xs, std::string name);
  /// A loss of that op (MSELoss, L1Loss, DiceLoss, SoftmaxCrossEntropy).
  int loss(int x, std::string name, Op op);

 private:
  int append(std::string name, Op op, std::vector<int> inputs, Layer proto = {});

  std::string name_;
  int spatial_rank_;
  std::vector<Layer> layers_;
  // Layer index by name, kept in step with layers_: find() in O(1) keeps a model file's
  // parse linear in its layers (issue 35: a linear scan made 200,000 layers quadratic).
  std::unordered_map<std::string, int> index_by_name_;
};

}  // namespace paradise::model
