#include "engine/io/stan_csv_writer.h"

#include <cmath>
#include <cstdio>

#include "engine/core/checks.h"
#include "engine/mcmc/euclidean_metric.h"
#include "engine/mcmc/sampler_columns.h"

namespace variate::io {
namespace {

constexpr const char* kStanCsvWriter = "StanCsvWriter";

std::string join_numbers(const double* values, size_t count, int sig_figs) {
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) text += ", ";  // CmdStan separates metric entries with ", "
    text += format_number(values[i], sig_figs);
  }
  return text;
}

// Seconds as CmdStan writes them: an ostream with its default precision of 6.
std::string format_seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", seconds);
  return buffer;
}

const std::string& checked_path(const std::string& path, const SampleCsvInfo& info) {
  if (info.metric != "diag_e" && info.metric != "dense_e" && info.metric != "lowrank_e" && info.metric != "unit_e") {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": argument 'metric' must be diag_e, dense_e, lowrank_e or unit_e, got " + info.metric);
  }
  if (info.num_samples < 0 || info.num_warmup < 0 || info.max_depth < 1 ||
      info.num_chains < 1) {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": num_samples and num_warmup must be non-negative and max_depth "
                        "and num_chains positive");
  }
  return path;
}

void write_header(LineFile& file, const SampleCsvInfo& info) {
  const CsvRunInfo& run = info.run;
  const auto number = [](double x) { return format_number(x, -1); };
  for (const auto& line : run_header_lines(run)) file.comment(line);
  file.comment(config_line(0, "method", "sample", true));
  file.comment("  sample");
  file.comment(config_line(4, "num_samples", std::to_string(info.num_samples),
                           info.num_samples == 1000));
  file.comment(config_line(4, "num_warmup", std::to_string(info.num_warmup),
                           info.num_warmup == 1000));
  file.comment(config_line(4, "save_warmup", info.save_warmup ? "1" : "0", !info.save_warmup));
  file.comment(config_line(4, "thin", "1", true));
  file.comment("    adapt");
  file.comment(config_line(6, "engaged", "1", true));
  file.comment(config_line(6, "delta", number(info.adapt_delta), info.adapt_delta == 0.8));
  file.comment(config_line(6, "method", info.adaptation, info.adaptation == "stan"));
  file.comment(config_line(4, "algorithm", "hmc", true));
  file.comment("      hmc");
  file.comment(config_line(8, "engine", "nuts", true));
  file.comment("          nuts");
  file.comment(config_line(12, "max_depth", std::to_string(info.max_depth),
                           info.max_depth == 10));
  file.comment(config_line(8, "metric", info.metric, info.metric == "diag_e"));
  file.comment(config_line(8, "stepsize", number(info.step_size), info.step_size == 1));
  file.comment(config_line(8, "reparam", info.reparam, info.reparam == "none"));
  file.comment(config_line(4, "num_chains", std::to_string(info.num_chains),
                           info.num_chains == 1));
  for (const auto& line : run_config_lines(run, file.path())) file.comment(line);
}

}  // namespace

StanCsvWriter::StanCsvWriter(const std::string& path, const SampleCsvInfo& info,
                             const std::vector<std::string>& parameter_columns)
    : file_(checked_path(path, info), kStanCsvWriter),
      info_(info),
      row_size_(kSamplerColumnCount + parameter_columns.size()) {
  write_header(file_, info_);
  std::string header;
  for (const auto& name : sampler_column_names()) header += (header.empty() ? "" : ",") + name;
  for (const auto& name : parameter_columns) header += "," + name;
  file_.line(header);
}

void StanCsvWriter::write_adaptation(double step_size,
                                     const std::vector<double>& inverse_metric) {
  if (adapted_) {
    throw ArgumentError(std::string(kStanCsvWriter) + ": the adaptation block was already written");
  }
  const size_t n = inverse_metric.size();
  const auto d = static_cast<size_t>(std::llround(std::sqrt(static_cast<double>(n))));
  if (info_.metric == "dense_e" && d * d != n) {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": argument 'inverse_metric' must hold d*d values for dense_e, got " +
                        std::to_string(n));
  }
  if (info_.metric == "unit_e" && n != 0) {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": argument 'inverse_metric' must be empty for unit_e, got " +
                        std::to_string(n) + " values");
  }
  // lowrank_e: r, then the d variances, then r times an eigenvalue and its eigenvector.
  const long low_rank_d = info_.metric == "lowrank_e" ? low_rank_dimension(inverse_metric) : -1;
  if (info_.metric == "lowrank_e" && low_rank_d < 0) {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": argument 'inverse_metric' must hold r, d variances and r times 1 + d values for "
                        "lowrank_e, got " +
                        std::to_string(n) + " values");
  }
  const int sig_figs = info_.run.sig_figs;
  file_.comment("Adaptation terminated");
  file_.comment("Step size = " + format_number(step_size, sig_figs));
  if (info_.metric == "diag_e") {
    file_.comment("Diagonal elements of inverse mass matrix:");
    file_.comment(join_numbers(inverse_metric.data(), n, sig_figs));
  } else if (info_.metric == "dense_e") {
    file_.comment("Elements of inverse mass matrix:");
    for (size_t i = 0; i < d; ++i) file_.comment(join_numbers(&inverse_metric[i * d], d, sig_figs));
  } else if (info_.metric == "lowrank_e") {
    const auto r = static_cast<size_t>(inverse_metric[0]);
    const auto dimension = static_cast<size_t>(low_rank_d);
    file_.comment(std::string(kLowRankMetric) + std::to_string(r) + kLowRankMetricEnd);
    file_.comment(join_numbers(&inverse_metric[1], dimension, sig_figs));
    for (size_t k = 0; k < r; ++k) {
      file_.comment(join_numbers(&inverse_metric[1 + dimension + k * (dimension + 1)], dimension + 1, sig_figs));
    }
  } else {
    file_.comment("No free parameters for unit metric");
  }
  adapted_ = true;
}

void StanCsvWriter::write_draw(const std::vector<double>& row) {
  write_draws({row});
}

// Every row is checked before any is written: a batch is written whole or not at all.
void StanCsvWriter::write_draws(const std::vector<std::vector<double>>& rows) {
  for (const std::vector<double>& row : rows) {
    if (row.size() != row_size_) {
      throw ArgumentError(std::string(kStanCsvWriter) + ": a draw must have " + std::to_string(row_size_) +
                          " values (7 sampler columns and " + std::to_string(row_size_ - kSamplerColumnCount) +
                          " parameters), got " + std::to_string(row.size()));
    }
  }
  if (!rows.empty() && !adapted_ && !info_.save_warmup && info_.num_warmup > 0) {
    throw ArgumentError(std::string(kStanCsvWriter) +
                        ": a draw before the adaptation block is a warmup draw, but "
                        "save_warmup is off");
  }
  std::string line;
  for (const std::vector<double>& row : rows) {
    line.clear();
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += ',';
      append_number(line, row[i], info_.run.sig_figs);
    }
    file_.buffered_line(line);
  }
  file_.flush();
}

void StanCsvWriter::finish(const ChainTiming& timing) {
  const std::string indent(15, ' ');  // the width of " Elapsed Time: "
  file_.comment("");
  file_.comment(" Elapsed Time: " + format_seconds(timing.warmup_seconds) + " seconds (Warm-up)");
  file_.comment(indent + format_seconds(timing.sampling_seconds) + " seconds (Sampling)");
  file_.comment(indent + format_seconds(timing.warmup_seconds + timing.sampling_seconds) +
                " seconds (Total)");
  file_.comment("");
  file_.close();
}

}  // namespace variate::io
