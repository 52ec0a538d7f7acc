#include "engine/io/summary_report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/core/checks.h"
#include "engine/target/parameter_names.h"

namespace variate::io {
namespace {

std::string printf_number(const char* format, int precision, double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, precision, value);
  return buffer;
}

// `sig_figs` significant digits, but the integer part in full up to 15 digits: an lp__ of
// -1972.4 reads -1972, not -1.97e+03.
std::string statistic(double x, int sig_figs) {
  int precision = sig_figs;
  if (std::isfinite(x) && std::abs(x) >= 1) {
    precision = std::max(precision, std::min(15, static_cast<int>(std::floor(std::log10(std::abs(x)))) + 1));
  }
  return printf_number("%.*g", precision, x);
}

std::vector<std::string> cells(const SummaryRow& row, int sig_figs) {
  const auto stat = [&](double x) { return statistic(x, sig_figs); };
  const auto count = [](double x) { return printf_number("%.*f", 0, x); };
  return {to_style(row.name, NameStyle::Bracketed),
          stat(row.mean), stat(row.mcse_mean), stat(row.sd), stat(row.q5), stat(row.q50),
          stat(row.q95), count(row.ess_bulk), count(row.ess_tail),
          printf_number("%.*f", 3, row.r_hat)};
}

// A finite number, or null: JSON has no NaN or infinity.
nlohmann::ordered_json json_number(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

}  // namespace

std::string format_summary_table(const std::vector<SummaryRow>& parameters,
                                 const std::vector<SummaryRow>& sampler_rows, int sig_figs) {
  sig_figs = std::clamp(sig_figs, 1, 17);
  std::vector<std::vector<std::string>> table;
  table.push_back({"", "Mean", "MCSE", "StdDev", "5%", "50%", "95%", "ESS_bulk", "ESS_tail",
                   "R_hat"});
  for (const auto& row : sampler_rows) table.push_back(cells(row, sig_figs));
  const size_t first_parameter = table.size();
  for (const auto& row : parameters) table.push_back(cells(row, sig_figs));

  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& line : table) {
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
  }
  std::string text;
  for (size_t r = 0; r < table.size(); ++r) {
    if (r == first_parameter && !sampler_rows.empty()) text += '\n';
    const auto& line = table[r];
    text += line[0] + std::string(widths[0] - line[0].size(), ' ');
    for (size_t c = 1; c < line.size(); ++c) {
      text += std::string(2 + widths[c] - line[c].size(), ' ') + line[c];
    }
    text += '\n';
  }
  return text;
}

nlohmann::ordered_json summary_document(const std::vector<SummaryRow>& parameters,
                                        const std::optional<SamplerTotals>& sampler, const std::string& backend,
                                        int ranks) {
  nlohmann::ordered_json document;
  nlohmann::ordered_json rows = nlohmann::ordered_json::object();
  // The names are distinct: appended to the object's list of pairs, not looked up in it
  // (ordered_json's operator[] searches the keys so far, quadratic in the parameters).
  auto& pairs = rows.get_ref<nlohmann::ordered_json::object_t&>();
  pairs.reserve(parameters.size());
  for (const auto& row : parameters) {
    pairs.emplace_back(to_style(row.name, NameStyle::Bracketed), nlohmann::ordered_json{
        {"mean", json_number(row.mean)},         {"sd", json_number(row.sd)},
        {"mcse_mean", json_number(row.mcse_mean)}, {"q5", json_number(row.q5)},
        {"q50", json_number(row.q50)},           {"q95", json_number(row.q95)},
        {"ess_bulk", json_number(row.ess_bulk)}, {"ess_tail", json_number(row.ess_tail)},
        {"r_hat", json_number(row.r_hat)}});
  }
  document["parameters"] = std::move(rows);
  if (sampler) {
    document["sampler"] = {{"divergences", sampler->divergences},
                           {"max_treedepth_hits", sampler->max_treedepth_hits},
                           {"leapfrog_steps", sampler->leapfrog_steps},
                           {"warmup_leapfrog_steps", sampler->warmup_leapfrog_steps},
                           {"gradient_evaluations", sampler->gradient_evaluations},
                           {"seconds_warmup", json_number(sampler->seconds_warmup)},
                           {"seconds_sampling", json_number(sampler->seconds_sampling)}};
  }
  if (!backend.empty()) document["backend"] = backend;
  if (ranks > 0) document["ranks"] = ranks;
  return document;
}

std::string summary_json(const std::vector<SummaryRow>& parameters,
                         const std::optional<SamplerTotals>& sampler, const std::string& backend, int ranks) {
  return summary_document(parameters, sampler, backend, ranks).dump(2) + "\n";
}

void write_summary_json(const std::string& path, const std::vector<SummaryRow>& parameters,
                        const std::optional<SamplerTotals>& sampler, const std::string& backend, int ranks) {
  const std::string text = summary_json(parameters, sampler, backend, ranks);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw ArgumentError("write_summary_json: cannot open '" + path + "' for writing: " +
                        std::strerror(errno));
  }
  out << text;
  out.flush();
  if (!out) throw ArgumentError("write_summary_json: cannot write '" + path + "'");
}

}  // namespace variate::io
