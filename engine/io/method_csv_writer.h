#pragma once
/// A CmdStan-style CSV file for the methods whose output is a table of points: `optimize`
/// (one row: lp__ then the parameters), its Laplace draws (log_p__, log_g__, parameters),
/// `pathfinder` (lp_approx__, lp__, parameters). The header records the run as CmdStan's
/// does, with the method's own configuration lines between the run's first and last lines:
///
///   MethodCsvWriter csv(path, run, {"method = optimize", "  optimize", ...},
///                       {"lp__"}, parameter_columns);
///   csv.write_row({lp}, values);

#include <string>
#include <vector>

#include "engine/io/line_file.h"
#include "engine/io/stan_csv_format.h"

namespace variate::io {

class MethodCsvWriter {
 public:
  /// Creates (truncates) `path` and writes the comment header and the header row.
  /// @throws ArgumentError for an unwritable path.
  MethodCsvWriter(const std::string& path, const CsvRunInfo& run, const std::vector<std::string>& method_lines,
                  std::vector<std::string> leading_columns, const std::vector<std::string>& parameter_columns);

  /// One row: the leading columns' values, then the parameters'.
  /// @throws ArgumentError if either has the wrong length.
  void write_row(const std::vector<double>& leading, const std::vector<double>& values);
  /// "# text" after the rows (CmdStan's timing lines).
  void comment(const std::string& text) { file_.comment(text); }
  void finish() { file_.close(); }

 private:
  LineFile file_;
  int sig_figs_;
  size_t leading_, parameters_;
};

}  // namespace variate::io
