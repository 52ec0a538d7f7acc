#pragma once
/// Writes one NUTS chain as CmdStan does (`output.csv` of `method=sample`), streaming:
/// every row (or batch of rows) is flushed as it is written, so a killed run keeps its draws.
///
///   StanCsvWriter out("out/chain_1.csv", info, element_names(...));
///   out.write_draw(row);                      // warmup rows, only when save_warmup
///   out.write_adaptation(0.83, inverse_metric);
///   out.write_draw(row);                      // sampler values, then the parameters
///   out.finish({0.05, 0.11});                 // the "Elapsed Time" block
///
/// Layout (CmdStan 2.33): comment lines with the configuration, the header row, warmup
/// rows if saved, "# Adaptation terminated", "# Step size = ...", the inverse metric,
/// the draw rows, and the timing block. Numbers follow CsvRunInfo::sig_figs (by default
/// the shortest text that reads back as the same double).

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/line_file.h"
#include "engine/io/stan_csv_format.h"

namespace variate::io {

/// The configuration recorded in a sampling file's header.
struct SampleCsvInfo {
  CsvRunInfo run;
  int64_t num_samples = 1000;
  int64_t num_warmup = 1000;
  bool save_warmup = false;
  double adapt_delta = 0.8;
  std::string adaptation = "stan";  ///< how warmup adapted the metric: "stan" or "fisher"
  int64_t max_depth = 10;
  std::string metric = "diag_e";  ///< "diag_e", "dense_e", "lowrank_e" or "unit_e"
  double step_size = 1;           ///< the initial step size
  /// The variables sampled partially non-centered: "none", or "theta=0.05,...;..."
  /// (the setting reparam's form).
  std::string reparam = "none";
  int64_t num_chains = 1;
};

class StanCsvWriter {
 public:
  /// Creates (truncates) `path` and writes the comment header and the header row: the
  /// sampler columns, then `parameter_columns` (e.g. "theta.1").
  /// @throws ArgumentError for an unknown metric, negative counts, or an unwritable path.
  StanCsvWriter(const std::string& path, const SampleCsvInfo& info,
                const std::vector<std::string>& parameter_columns);

  /// The adaptation block. `inverse_metric` holds d values for diag_e, d*d (row-major)
  /// for dense_e, none for unit_e; for lowrank_e, EuclideanMetric's entries (r, d
  /// variances, then r times an eigenvalue and its eigenvector).
  /// @throws ArgumentError if the metric has the wrong size or the block was written.
  void write_adaptation(double step_size, const std::vector<double>& inverse_metric);

  /// One row: the sampler values (mcmc/sampler_columns.h), then the parameters. Rows before
  /// write_adaptation() are warmup rows, allowed only when save_warmup is set.
  /// @throws ArgumentError for a row of the wrong length or a warmup row not to be saved.
  void write_draw(const std::vector<double>& row);
  /// The rows of a batch, as write_draw each, flushed once at the end.
  void write_draws(const std::vector<std::vector<double>>& rows);

  /// The timing block, then closes the file. Without finish() (a stopped run) the file
  /// ends after the last row, as a killed CmdStan's does.
  void finish(const ChainTiming& timing);

 private:
  LineFile file_;
  SampleCsvInfo info_;
  size_t row_size_;
  bool adapted_ = false;
};

}  // namespace variate::io
