#include "engine/io/stan_csv_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace variate::io {

std::string format_number(double value, int sig_figs) {
  std::string text;
  append_number(text, value, sig_figs);
  return text;
}

void append_number(std::string& out, double value, int sig_figs) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
    return;
  }
  char buffer[64];
  if (sig_figs <= 0) {
    // Shortest round-trip form (Ryu via std::to_chars): "0.1" rather than
    // "0.10000000000000001", and exact for every double.
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
    return;
  }
  const int length = std::snprintf(buffer, sizeof buffer, "%.*g", sig_figs > 18 ? 18 : sig_figs, value);
  out.append(buffer, static_cast<size_t>(length));
}

std::string current_utc_datetime() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return buffer;
}

std::string config_line(int indent, const std::string& key, const std::string& value,
                        bool is_default) {
  return std::string(static_cast<size_t>(indent), ' ') + key + " = " + value +
         (is_default ? " (Default)" : "");
}

std::vector<std::string> run_header_lines(const CsvRunInfo& run) {
  std::vector<std::string> lines;
  if (!run.variate_version.empty()) lines.push_back("variate_version = " + run.variate_version);
  lines.push_back("model = " + run.model);
  lines.push_back("start_datetime = " +
                  (run.start_datetime.empty() ? current_utc_datetime() : run.start_datetime));
  return lines;
}

std::vector<std::string> run_config_lines(const CsvRunInfo& run, const std::string& output_path) {
  return {config_line(0, "id", std::to_string(run.chain_id), run.chain_id == 1),
          "data",
          config_line(2, "file", run.data_file, run.data_file.empty()),
          config_line(0, "init", run.init, run.init == "2"),
          "random",
          config_line(2, "seed", std::to_string(run.seed), false),
          "output",
          config_line(2, "file", output_path, false),
          config_line(2, "sig_figs", std::to_string(run.sig_figs), run.sig_figs == -1)};
}

}  // namespace variate::io
