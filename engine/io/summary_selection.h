#pragma once
/// Which rows a printed summary shows, as ArviZ's `var_names` chooses them. A choice is a
/// comma-separated list of variables ("theta": every element, "theta[2]": one) and
/// exclusions ("~log_lik"); "all" shows every row. Without a choice, or with exclusions
/// only, the posterior predictive's rows (NAME_rep and log_lik: one per observation, many,
/// and read through `variate loo` and predictive checks rather than a table) are left out.
///
///   select_summary_rows(rows, "mu,tau").rows   // mu and tau only
///   select_summary_rows(rows, std::nullopt)    // parameters and derived quantities

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/io/summary_report.h"

namespace variate::io {

struct SummarySelection {
  std::vector<SummaryRow> rows;
  /// The variables the default left out and their rows, for a note: {"y_rep", 8}.
  std::vector<std::pair<std::string, int>> left_out;
};

/// @throws ArgumentError for a name no row has, or an empty choice.
SummarySelection select_summary_rows(const std::vector<SummaryRow>& rows, const std::optional<std::string>& choice);

/// "theta" of "theta[2]".
std::string variable_of(const std::string& row_name);

}  // namespace variate::io
