// `paradise calibrate`'s steps: alpha and beta fitted to nccl-tests / OSU measurements per
// network level, the roofline's GEMM efficiency curve fitted to per-layer times, each with
// its fit quality printed, and the calibrated system file written (it must read back).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "paradise/calibrate/roofline_fit.hpp"
#include "paradise/system/system.hpp"

namespace paradise::report {

/// One measurement file for a network level, as the command line named it
/// (--nccl / --osu FILE:LEVEL[:GPUS]).
struct MeasurementSource {
  std::string option, text, file, level;
  std::int64_t gpus = 0;  ///< 0: the file says
};

/// Fits each source's alpha and beta into its level of `s` (each level once), printing each
/// fit and its residuals; returns the lines of the system file's comment saying so.
std::string calibrate_network(std::ostream& out, system::System& s,
                              const std::vector<MeasurementSource>& sources);

/// The per-layer times `profile` of `model` (at `dataset`'s input, the model's own when
/// empty) checked against the model: prints each layer's efficiency, fits the roofline's GEMM
/// efficiency curve of `calibrated`'s GPU to every batch, and writes the layer-times CSV
/// predict/recommend/sweep take to `out_path`. Returns the fit.
calibrate::RooflineFit calibrate_layers(std::ostream& out, const std::string& profile,
                                        const std::string& model, const std::string& dataset,
                                        const std::string& system_name,
                                        const system::System& calibrated,
                                        const std::string& out_path);

/// Writes `s` with `comment` to `path` once it reads back; otherwise removes `layers_out`
/// (when not empty) and says why.
void write_calibrated_system(std::ostream& out, const system::System& s, const std::string& comment,
                             const std::string& path, const std::string& layers_out);

}  // namespace paradise::report
