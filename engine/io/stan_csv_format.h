#pragma once
/// What CmdStan-style CSV writers share: how numbers are written and what the comment
/// header records about a run.

#include <cstdint>
#include <string>
#include <vector>

namespace variate::io {

/// A number as a CSV field. `sig_figs` <= 0 writes the shortest text that reads back as
/// the same double (at most 17 significant digits, so draws round-trip exactly);
/// 1..18 writes that many significant digits, like CmdStan's `sig_figs`. Non-finite
/// values are written as CmdStan writes them: nan, inf, -inf.
std::string format_number(double value, int sig_figs = -1);
/// format_number's text appended to `out` (no string of its own: a row of many numbers).
void append_number(std::string& out, double value, int sig_figs = -1);

/// What the comment header says about the run, for every method.
struct CsvRunInfo {
  std::string model = "model";  ///< "# model = ..."
  std::string data_file;        ///< empty when the run has no data
  uint64_t seed = 0;
  int64_t chain_id = 1;
  std::string init = "2";         ///< CmdStan's default: uniform(-2, 2) unconstrained
  std::string variate_version;    ///< "# variate_version = ..." (omitted when empty)
  std::string start_datetime;     ///< "2024-05-01 12:00:00 UTC"; empty: when the file opens
  int sig_figs = -1;              ///< see format_number
};

/// How a lowrank_e adaptation block names its metric, around its number of eigenvalues r:
/// a line of d variances follows, then r lines of an eigenvalue and its eigenvector.
inline constexpr char kLowRankMetric[] =
    "Low-rank inverse mass matrix S (I + U (L - I) U') S: the diagonal of S^2, then ";
inline constexpr char kLowRankMetricEnd[] = " eigenvalues (L), each followed by its eigenvector (U's column):";

/// Wall-clock time of one chain, written at the end of a sampling file.
struct ChainTiming {
  double warmup_seconds = 0;
  double sampling_seconds = 0;
};

/// "2024-05-01 12:00:00 UTC", the current time as CmdStan writes start_datetime.
std::string current_utc_datetime();

/// "key = value", with CmdStan's " (Default)" mark when `is_default`.
std::string config_line(int indent, const std::string& key, const std::string& value,
                        bool is_default);

/// The lines every header begins with: variate_version (when set), model and
/// start_datetime.
std::vector<std::string> run_header_lines(const CsvRunInfo& run);

/// The configuration lines every CmdStan method ends its header with: id, data file,
/// init, random seed, output file and precision.
std::vector<std::string> run_config_lines(const CsvRunInfo& run, const std::string& output_path);

}  // namespace variate::io
