// Helpers of the paradise variant's tests: its configuration, a model written to a temporary
// file, and the memory components of a prediction.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <string_view>

#include "paradise/strategy/predict.hpp"

namespace paradise::strategy {

inline Config paradise_config(Kind k, std::int64_t gpus, std::int64_t batch) {
  Config c;
  c.kind = k;
  c.gpus = gpus;
  c.batch = batch;
  c.variant = Variant::Paradise;
  return c;
}

// A model written to the test's temporary folder as NAME.model, its workload on ABCI with
// the dataset given (NAME:SAMPLES:SHAPE).
inline Workload written_model(const std::string& name, const std::string& text,
                              const std::string& dataset) {
  const std::string path = testing::TempDir() + "/" + name + ".model";
  std::ofstream(path) << text;
  return make_workload({path, dataset, "abci", "", 0});
}

inline double memory_part(const Prediction& p, std::string_view prefix) {
  for (const auto& m : p.memory) {
    if (m.name.starts_with(prefix)) return m.bytes;
  }
  return -1;
}

// Seconds per epoch of the communication part `name`.
inline double part_s(const Prediction& p, std::string_view name) {
  for (const auto& c : p.communication)
    if (c.name == name) return c.epoch_s;
  ADD_FAILURE() << "no communication part " << name;
  return 0;
}

// A training step's activation memory: the saved activations and the gradients beyond them.
inline double activation_memory(const Prediction& p) {
  return memory_part(p, "saved activations") + memory_part(p, "activation gradients");
}

}  // namespace paradise::strategy
