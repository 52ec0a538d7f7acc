#pragma once
/// Writes the draws of a variational fit as CmdStan's `method=variational` (ADVI) does:
/// the header row `lp__,log_p__,log_g__` then the parameters; after
/// "# Stepsize adaptation complete." and "# eta = ...", the first row is the mean of the
/// approximation (with lp__, log_p__ and log_g__ written as 0), then one row per draw
/// (lp__ = 0, log_p__ the model's log density, log_g__ the approximation's).
/// Rows are flushed as they are written.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/line_file.h"
#include "engine/io/stan_csv_format.h"

namespace variate::io {

/// The configuration recorded in a variational file's header (CmdStan's defaults).
struct VariationalCsvInfo {
  CsvRunInfo run;
  std::string algorithm = "meanfield";  ///< or "fullrank"
  int64_t iter = 10000;
  int64_t grad_samples = 1;
  int64_t elbo_samples = 100;
  double eta = 1;
  bool adapt_engaged = true;
  int64_t adapt_iter = 50;
  double tol_rel_obj = 0.01;
  int64_t eval_elbo = 100;
  int64_t output_samples = 1000;
};

class VariationalCsvWriter {
 public:
  /// Creates (truncates) `path`; writes the comment header and the header row.
  /// @throws ArgumentError for an unknown algorithm or an unwritable path.
  VariationalCsvWriter(const std::string& path, const VariationalCsvInfo& info,
                       const std::vector<std::string>& parameter_columns);

  /// "# Stepsize adaptation complete." and "# eta = ...", when eta was adapted.
  /// @throws ArgumentError after the first row.
  void write_eta(double eta);
  /// The first row: the mean of the approximation.
  /// @throws ArgumentError if it is not the first row or has the wrong length.
  void write_mean(const std::vector<double>& values);
  /// One draw from the approximation. @throws ArgumentError before write_mean() or for
  /// the wrong length.
  void write_draw(double log_p, double log_g, const std::vector<double>& values);
  /// Closes the file.
  void finish();

 private:
  void write_row(double log_p, double log_g, const std::vector<double>& values);

  LineFile file_;
  int sig_figs_;
  size_t parameters_;
  bool has_mean_ = false;
};

}  // namespace variate::io
