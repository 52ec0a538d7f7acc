#pragma once
// `--summary-variables`: the rows a command's printed summary shows (ArviZ's var_names;
// io/summary_selection.h), and the table printed with them. The --summary-json document
// keeps every row.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/io/summary_report.h"

namespace variate::cli {

void add_summary_variables_option(CLI::App& command, std::optional<std::string>& choice);

/// `table` of the rows `choice` chooses, then a line naming what the default left out; for
/// a choice io::select_summary_rows refuses, the table of every row and why.
std::string with_chosen_rows(const std::vector<io::SummaryRow>& rows, const std::optional<std::string>& choice,
                             const std::function<std::string(const std::vector<io::SummaryRow>&)>& table);

/// with_chosen_rows for io::format_summary_table (the sampler's rows always shown).
std::string chosen_summary_table(const std::vector<io::SummaryRow>& parameters,
                                 const std::vector<io::SummaryRow>& sampler_rows,
                                 const std::optional<std::string>& choice);

}  // namespace variate::cli
