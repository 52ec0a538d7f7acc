#pragma once
/// Reads CmdStan CSV output (CmdStan, cmdstanr/cmdstanpy, rstan, and Variate's own):
/// the configuration comments, the header row, the draws (warmup rows separated), the
/// adaptation block, and the timing block.
///
///   const StanCsv chain = read_stan_csv("out/chain_1.csv");
///   chain.adaptation->step_size;            // from "# Step size = 0.83"
///   chain.config.at("sample.num_warmup");   // "1000"
///   chain.column("theta.1");                // post-warmup values

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/io/stan_csv_format.h"

namespace variate::io {

/// The step size and inverse metric a sampler adapted ("# Adaptation terminated" ...).
struct StanCsvAdaptation {
  double step_size = 0;
  std::string metric;  ///< "diag_e", "dense_e", "lowrank_e" or "unit_e"
  /// d values (diag_e), d*d row-major (dense_e), or r, d variances and r times an
  /// eigenvalue and its eigenvector (lowrank_e)
  std::vector<double> inverse_metric;
};

struct StanCsv {
  std::string file;
  /// The configuration comments before the header row, keyed by their path in CmdStan's
  /// argument tree with " (Default)" removed: "model", "method", "sample.num_warmup",
  /// "sample.save_warmup", "sample.hmc.nuts.max_depth", "sample.hmc.metric", "id",
  /// "data.file", "random.seed", "variational.iter", ...
  std::map<std::string, std::string> config;
  std::vector<std::string> columns;
  /// Each column's position in `columns` (the reader fills both), so that looking up
  /// the columns of a wide file (10^5 log_lik columns) is not quadratic.
  std::unordered_map<std::string, size_t> column_positions;
  std::vector<std::vector<double>> warmup_draws;  ///< only when the run saved them
  std::vector<std::vector<double>> draws;         ///< post-warmup rows
  /// Variational output (its header begins with variational_column_names()): the first
  /// row, the mean of the
  /// approximation, which is not a draw.
  std::optional<std::vector<double>> approximation_mean;
  std::optional<StanCsvAdaptation> adaptation;
  std::optional<double> eta;  ///< variational "# eta = ..."
  std::optional<ChainTiming> timing;
  /// The file ended inside a row (a killed run): that partial row was dropped.
  bool dropped_partial_row = false;

  /// Position of a column, or nothing.
  std::optional<size_t> column_index(const std::string& name) const;
  /// A column's post-warmup values. @throws ArgumentError naming the file and column.
  std::vector<double> column(const std::string& name) const;
};

/// Parses the text of a Stan CSV file. Comment lines start with '#'; blank lines are
/// skipped; CRLF line ends, one trailing comma per line and double-quoted column names
/// are accepted; numbers may be nan, inf or -inf (any case). Warmup rows are those
/// before "# Adaptation terminated" or, without that block, the first
/// ceil(num_warmup / thin) rows when save_warmup is set.
/// @throws ArgumentError "file:line:column: expected a number, got 'abc'",
///         "file:line: a row has 9 fields, the header has 10", "file: no header row", ...
StanCsv parse_stan_csv(const std::string& text, const std::string& file_name);

/// Reads and parses a file; errors name `path` as given.
/// @throws ArgumentError if the file cannot be read or is malformed.
StanCsv read_stan_csv(const std::string& path);

}  // namespace variate::io
