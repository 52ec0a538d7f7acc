#include "engine/io/method_csv_writer.h"

#include "engine/core/argument_error.h"

namespace variate::io {

MethodCsvWriter::MethodCsvWriter(const std::string& path, const CsvRunInfo& run,
                                 const std::vector<std::string>& method_lines, std::vector<std::string> leading_columns,
                                 const std::vector<std::string>& parameter_columns)
    : file_(path, "MethodCsvWriter"),
      sig_figs_(run.sig_figs),
      leading_(leading_columns.size()),
      parameters_(parameter_columns.size()) {
  for (const auto& line : run_header_lines(run)) file_.comment(line);
  for (const auto& line : method_lines) file_.comment(line);
  for (const auto& line : run_config_lines(run, file_.path())) file_.comment(line);
  std::string header;
  for (const auto& name : leading_columns) header += (header.empty() ? "" : ",") + name;
  for (const auto& name : parameter_columns) header += (header.empty() ? "" : ",") + name;
  file_.line(header);
}

void MethodCsvWriter::write_row(const std::vector<double>& leading, const std::vector<double>& values) {
  if (leading.size() != leading_ || values.size() != parameters_) {
    throw ArgumentError("MethodCsvWriter: a row must have " + std::to_string(leading_) + " + " +
                        std::to_string(parameters_) + " values, got " + std::to_string(leading.size()) + " + " +
                        std::to_string(values.size()));
  }
  std::string line;
  for (const double x : leading) line += (line.empty() ? "" : ",") + format_number(x, sig_figs_);
  for (const double x : values) line += (line.empty() ? "" : ",") + format_number(x, sig_figs_);
  file_.line(line);
}

}  // namespace variate::io
