#include "engine/io/variational_csv_writer.h"

#include "engine/core/checks.h"
#include "engine/vi/variational_draws.h"

namespace variate::io {
namespace {

constexpr const char* kVariationalCsvWriter = "VariationalCsvWriter";

const std::string& checked_path(const std::string& path, const VariationalCsvInfo& info) {
  if (info.algorithm != "meanfield" && info.algorithm != "fullrank") {
    throw ArgumentError(std::string(kVariationalCsvWriter) +
                        ": argument 'algorithm' must be meanfield or fullrank, got " +
                        info.algorithm);
  }
  return path;
}

void write_header(LineFile& file, const VariationalCsvInfo& info) {
  const CsvRunInfo& run = info.run;
  const auto number = [](double x) { return format_number(x, -1); };
  for (const auto& line : run_header_lines(run)) file.comment(line);
  file.comment(config_line(0, "method", "variational", false));
  file.comment("  variational");
  file.comment(config_line(4, "algorithm", info.algorithm, info.algorithm == "meanfield"));
  file.comment("      " + info.algorithm);
  file.comment(config_line(4, "iter", std::to_string(info.iter), info.iter == 10000));
  file.comment(config_line(4, "grad_samples", std::to_string(info.grad_samples),
                           info.grad_samples == 1));
  file.comment(config_line(4, "elbo_samples", std::to_string(info.elbo_samples),
                           info.elbo_samples == 100));
  file.comment(config_line(4, "eta", number(info.eta), info.eta == 1));
  file.comment("    adapt");
  file.comment(config_line(6, "engaged", info.adapt_engaged ? "1" : "0", info.adapt_engaged));
  file.comment(config_line(6, "iter", std::to_string(info.adapt_iter), info.adapt_iter == 50));
  file.comment(config_line(4, "tol_rel_obj", number(info.tol_rel_obj), info.tol_rel_obj == 0.01));
  file.comment(config_line(4, "eval_elbo", std::to_string(info.eval_elbo), info.eval_elbo == 100));
  file.comment(config_line(4, "output_samples", std::to_string(info.output_samples),
                           info.output_samples == 1000));
  for (const auto& line : run_config_lines(run, file.path())) file.comment(line);
}

}  // namespace

VariationalCsvWriter::VariationalCsvWriter(const std::string& path,
                                           const VariationalCsvInfo& info,
                                           const std::vector<std::string>& parameter_columns)
    : file_(checked_path(path, info), kVariationalCsvWriter),
      sig_figs_(info.run.sig_figs),
      parameters_(parameter_columns.size()) {
  write_header(file_, info);
  std::string header;
  for (const auto& name : variational_column_names()) header += (header.empty() ? "" : ",") + name;
  for (const auto& name : parameter_columns) header += "," + name;
  file_.line(header);
}

void VariationalCsvWriter::write_eta(double eta) {
  if (has_mean_) {
    throw ArgumentError(std::string(kVariationalCsvWriter) + ": eta must be written before the first row");
  }
  file_.comment("Stepsize adaptation complete.");
  file_.comment("eta = " + format_number(eta, sig_figs_));
}

void VariationalCsvWriter::write_mean(const std::vector<double>& values) {
  if (has_mean_) {
    throw ArgumentError(std::string(kVariationalCsvWriter) + ": the mean row was already written");
  }
  write_row(0, 0, values);
  has_mean_ = true;
}

void VariationalCsvWriter::write_draw(double log_p, double log_g,
                                      const std::vector<double>& values) {
  if (!has_mean_) {
    throw ArgumentError(std::string(kVariationalCsvWriter) +
                        ": the first row must be the mean of the approximation");
  }
  write_row(log_p, log_g, values);
}

void VariationalCsvWriter::finish() { file_.close(); }

void VariationalCsvWriter::write_row(double log_p, double log_g,
                                     const std::vector<double>& values) {
  if (values.size() != parameters_) {
    throw ArgumentError(std::string(kVariationalCsvWriter) + ": a row must have " +
                        std::to_string(parameters_) + " parameter values, got " +
                        std::to_string(values.size()));
  }
  std::string line = "0," + format_number(log_p, sig_figs_) + "," +
                     format_number(log_g, sig_figs_);
  for (const double value : values) line += "," + format_number(value, sig_figs_);
  file_.line(line);
}

}  // namespace variate::io
