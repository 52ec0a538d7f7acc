#pragma once
/// The posterior summary as people and programs read it: a stansummary-like text table
/// and the `--summary-json` document (docs/CLI.md).
///
/// The rows are plain values; diagnostics::ParameterSummary (or any struct with the same
/// field names) converts with summary_rows().

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace variate::io {

/// One line of the summary. Names are written posteriordb-style ("theta[1]"); Stan CSV
/// names ("theta.1") are converted.
struct SummaryRow {
  std::string name;
  double mean = 0;
  double mcse_mean = 0;
  double sd = 0;
  double q5 = 0;
  double q50 = 0;
  double q95 = 0;
  double ess_bulk = 0;
  double ess_tail = 0;
  double r_hat = 0;
};

/// Copies the fields of any summary struct that names them as SummaryRow does.
template <class Summary>
std::vector<SummaryRow> summary_rows(const std::vector<Summary>& summaries) {
  std::vector<SummaryRow> rows;
  rows.reserve(summaries.size());
  for (const auto& s : summaries) {
    rows.push_back({s.name, s.mean, s.mcse_mean, s.sd, s.q5, s.q50, s.q95, s.ess_bulk,
                    s.ess_tail, s.r_hat});
  }
  return rows;
}

/// What the sampler did, for the "sampler" object of the summary document.
/// Divergences and treedepth hits count post-warmup transitions (as CmdStan reports
/// them); leapfrog steps and gradient evaluations are the cost of the whole run.
struct SamplerTotals {
  int64_t divergences = 0;
  int64_t max_treedepth_hits = 0;
  int64_t leapfrog_steps = 0;         ///< warmup and sampling
  int64_t warmup_leapfrog_steps = 0;  ///< warmup's: what a better start saves
  int64_t gradient_evaluations = 0;
  double seconds_warmup = 0;
  double seconds_sampling = 0;
};

/// The table: a header line (Mean, MCSE, StdDev, 5%, 50%, 95%, ESS_bulk, ESS_tail,
/// R_hat), then `sampler_rows` (lp__ and friends) and a blank line if there are any, then
/// `parameters`. Names are left-aligned, numbers right-aligned in columns two spaces
/// apart; statistics have `sig_figs` significant digits, ESS is rounded to an integer,
/// R-hat has three decimals. Every line ends with '\n'.
std::string format_summary_table(const std::vector<SummaryRow>& parameters,
                                 const std::vector<SummaryRow>& sampler_rows = {},
                                 int sig_figs = 3);

/// The summary document:
///   {"parameters": {"theta[1]": {"mean", "sd", "mcse_mean", "q5", "q50", "q95",
///                                "ess_bulk", "ess_tail", "r_hat"}, ...},
///    "sampler": {"divergences", "max_treedepth_hits", "leapfrog_steps",
///                "warmup_leapfrog_steps", "gradient_evaluations", "seconds_warmup",
///                "seconds_sampling"}}
/// with parameters in the given order and NaN or infinite values as null. Without
/// `sampler` (a variational fit) the "sampler" object is left out. A non-empty `backend`
/// ("tape", "torch": what evaluated the density) adds {"backend": ...}; a positive
/// `ranks` (the processes that made the run) adds {"ranks": n}.
nlohmann::ordered_json summary_document(const std::vector<SummaryRow>& parameters,
                                        const std::optional<SamplerTotals>& sampler, const std::string& backend = "",
                                        int ranks = 0);
/// summary_document() as text (indented by 2, with a final newline). Callers that add to
/// the document take it as a document: an ordered_json parsed from this text looks each
/// key up in the keys before it, which takes hours for 10^6 parameters.
std::string summary_json(const std::vector<SummaryRow>& parameters,
                         const std::optional<SamplerTotals>& sampler, const std::string& backend = "",
                         int ranks = 0);

/// Writes summary_json() to `path`.
/// @throws ArgumentError if the file cannot be written.
void write_summary_json(const std::string& path, const std::vector<SummaryRow>& parameters,
                        const std::optional<SamplerTotals>& sampler, const std::string& backend = "",
                        int ranks = 0);

}  // namespace variate::io
