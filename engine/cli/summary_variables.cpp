#include "engine/cli/summary_variables.h"

#include "engine/core/argument_error.h"
#include "engine/io/summary_selection.h"

namespace variate::cli {

void add_summary_variables_option(CLI::App& command, std::optional<std::string>& choice) {
  command.add_option("--summary-variables", choice,
                     "The quantities the printed summary shows, as ArviZ's var_names: NAME (every element), "
                     "NAME[i], ~NAME to leave one out, comma-separated; 'all' for every one (default: all but the "
                     "posterior predictive's NAME_rep and log_lik)");
}

std::string with_chosen_rows(const std::vector<io::SummaryRow>& rows, const std::optional<std::string>& choice,
                             const std::function<std::string(const std::vector<io::SummaryRow>&)>& table) {
  io::SummarySelection selection;
  try {
    selection = io::select_summary_rows(rows, choice);
  } catch (const ArgumentError& e) {  // after a run: its summary is shown whole, not lost
    return table(rows) + "Every quantity is shown: " + e.what() + ".\n";
  }
  std::string text = table(selection.rows);
  if (selection.left_out.empty()) return text;
  std::string list;
  for (const auto& [variable, count] : selection.left_out) {
    list += (list.empty() ? "" : ", ") + variable + " (" + std::to_string(count) + (count == 1 ? " value)" : " values)");
  }
  return text + "Not shown: " + list + "; --summary-variables all shows them.\n";
}

std::string chosen_summary_table(const std::vector<io::SummaryRow>& parameters,
                                 const std::vector<io::SummaryRow>& sampler_rows,
                                 const std::optional<std::string>& choice) {
  return with_chosen_rows(parameters, choice, [&](const std::vector<io::SummaryRow>& rows) {
    return io::format_summary_table(rows, sampler_rows);
  });
}

}  // namespace variate::cli
