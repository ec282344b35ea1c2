// Measured runs against projections (ParaDL's use "comparison of projections with measured
// results to detect abnormal behavior", Kahira et al. HPDC'21 §1): per row the projection and
// ParaDL's accuracy metric, per strategy and overall the mean accuracy, the rank agreement of
// strategies, and the rows beyond a threshold with the likely cause.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "paradise/implementation/profile.hpp"
#include "paradise/strategy/config.hpp"
#include "paradise/strategy/prediction.hpp"
#include "paradise/strategy/workload.hpp"

namespace paradise::validate {

/// One row of a measured-runs CSV (format in docs/validation.md, "Validating against
/// measurements").
struct MeasuredRun {
  std::string file;  ///< the CSV file, for messages
  int line = 0;      ///< line in the CSV file
  /// Every input column, in file order, as written (known and unknown ones: echoed back).
  std::vector<std::pair<std::string, std::string>> columns;
  std::string model, dataset, system, strategy, precision, layer_config, layer_times;
  std::string implementation;  ///< the column: a built-in or *.impl file; "": Options'
  strategy::Kind kind = strategy::Kind::Data;
  strategy::Precision precision_kind = strategy::Precision::Fp32;
  std::int64_t gpus = 0, batch = 0, p2 = 0;
  std::optional<double> iteration_s, epoch_s, compute_s, communication_s, memory_bytes;
  double time_per_sample_s = 0;  ///< measured s/sample for calibration; 0: none
};

/// The numeric columns of the format (echoed as numbers in JSON); the others are text.
bool is_numeric_column(const std::string& name);

/// Reads and checks the CSV: required columns, numbers, strategy and precision names, and
/// (through `check_names`) models, datasets and systems. Errors name file, line, column and
/// value. `system_override` (non-empty) replaces every row's system (the system column is
/// then optional).
std::vector<MeasuredRun> read_runs(std::istream& in, const std::string& file,
                                   const std::string& system_override = "");

/// Which part of a run a divergence is in, for the cause of an anomaly.
struct Anomaly {
  std::string part;   ///< compute, communication, memory (or "time" without a clear part)
  std::string cause;  ///< what diverges, with the numbers
  std::string hint;   ///< what to check
};

struct RowResult {
  const MeasuredRun* run = nullptr;
  std::string status;          ///< ok, out_of_memory, invalid (prediction) or error (not predicted)
  std::string reason;          ///< the prediction's reason or the error
  std::string basis;           ///< iteration or epoch: what measured_s and projected_s are
  std::string implementation;  ///< the profile's name (paradise variant)
  std::optional<double> projected_s, measured_s, accuracy, relative_error;
  std::optional<double> projected_epoch_s, measured_epoch_s;  ///< for the rank agreement
  /// The projection's parts on the same basis: compute, all communication before overlap,
  /// the part of it hidden behind compute, memory per GPU. Per iteration, compute +
  /// communication - overlapped + input wait + step overhead = projected_s.
  std::optional<double> projected_compute_s, projected_communication_s, projected_overlapped_s;
  std::optional<double> projected_input_wait_s;     ///< waiting for the input pipeline
  std::optional<double> projected_step_overhead_s;  ///< the framework's time per step
  std::optional<double> projected_memory_bytes;
  std::optional<Anomaly> anomaly;
};

/// Concordance of measured and projected epoch times over pairs of rows with different
/// strategies and the same (model, dataset, system, GPUs).
struct RankGroup {
  std::string model, dataset, system;
  std::int64_t gpus = 0;
  std::vector<std::string> strategies;  ///< fastest measured first
  std::int64_t pairs = 0, concordant = 0, discordant = 0, tied = 0;
  std::optional<double> kendall_tau;  ///< tau-a: (concordant - discordant) / pairs
};

struct RankAgreement {
  std::vector<RankGroup> groups;
  std::int64_t pairs = 0, concordant = 0, discordant = 0, tied = 0;
  std::optional<double> kendall_tau;          ///< pooled over the groups: (C - D) / pairs
  std::optional<double> fraction_concordant;  ///< C / (C + D)
};

struct Summary {
  std::int64_t rows = 0, compared = 0, anomalies = 0;
  std::optional<double> mean_accuracy;
  std::vector<std::pair<std::string, double>> per_strategy;  ///< mean accuracy, in row order
  RankAgreement rank_agreement;
};

struct Options {
  strategy::Variant variant = strategy::Variant::Paradl;
  double threshold = 0.25;  ///< |projected - measured| / measured beyond this: an anomaly
  /// The implementation of rows without an `implementation` cell (paradise variant): a
  /// built-in name or an *.impl file.
  std::string implementation = std::string(implementation::kDefaultName);
  /// Set: every row's profile (fit_implementation's candidates), whatever its cell or the name.
  const implementation::Implementation* profile = nullptr;
  /// Set: the workloads built, by row, kept across calls (a fit evaluates the rows many times).
  std::map<std::string, strategy::Workload>* workloads = nullptr;
};

/// ParaDL's accuracy metric (Kahira et al., TR §V, docs/cost-model.md §ref-accuracy):
/// 1 - |projected - measured| / measured.
double accuracy(double projected, double measured);

/// Kendall's tau-a of two equally long series over the pairs whose labels differ (no labels:
/// every pair); a pair tied in either series is counted as tied, neither concordant nor not.
RankGroup concordance(const std::vector<double>& measured, const std::vector<double>& projected,
                      const std::vector<std::string>& labels = {});

/// Predicts every run and compares.
std::vector<RowResult> evaluate(const std::vector<MeasuredRun>& runs, const Options& o);
Summary summarize(const std::vector<RowResult>& rows);

/// The likely cause of a row's divergence: the measured part (compute, communication,
/// memory) that diverges most from its projection, or without parts the part that dominates
/// the projection; with a hint of what to check (worded for the variant that projected it).
Anomaly diagnose(const MeasuredRun& run, const RowResult& row,
                 strategy::Variant variant = strategy::Variant::Paradl);
/// A run that was measured although its projection is out of memory: an anomaly of the
/// memory model whatever the time's accuracy (it replaces a time anomaly, whose ratio it
/// keeps).
Anomaly measured_but_out_of_memory(const MeasuredRun& run, const RowResult& row);

}  // namespace paradise::validate
