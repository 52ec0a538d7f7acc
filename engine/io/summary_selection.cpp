#include "engine/io/summary_selection.h"

#include <algorithm>

#include "engine/core/argument_error.h"

namespace variate::io {
namespace {

bool predictive(const std::string& variable) {
  const std::string suffix = "_rep";
  return variable == "log_lik" ||
         (variable.size() > suffix.size() && variable.compare(variable.size() - suffix.size(), suffix.size(), suffix) == 0);
}

bool names(const std::string& wanted, const SummaryRow& row) {
  return wanted == row.name || wanted == variable_of(row.name);
}

std::vector<std::string> split(const std::string& choice) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t comma = choice.find(',', start);
    std::string part = choice.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

}  // namespace

std::string variable_of(const std::string& row_name) { return row_name.substr(0, row_name.find('[')); }

SummarySelection select_summary_rows(const std::vector<SummaryRow>& rows, const std::optional<std::string>& choice) {
  SummarySelection selection;
  if (choice && *choice == "all") {
    selection.rows = rows;
    return selection;
  }
  std::vector<std::string> wanted, excluded;
  if (choice) {
    for (const auto& part : split(*choice)) {
      if (part[0] == '~') {
        excluded.push_back(part.substr(1));
      } else {
        wanted.push_back(part);
      }
    }
    if (wanted.empty() && excluded.empty()) throw ArgumentError("--summary-variables: no names given (or 'all')");
  }
  for (const auto& name : wanted) {
    if (std::none_of(rows.begin(), rows.end(), [&](const SummaryRow& row) { return names(name, row); })) {
      throw ArgumentError("--summary-variables: the summary has no variable '" + name + "'");
    }
  }
  for (const auto& row : rows) {
    const bool chosen = wanted.empty() ? !predictive(variable_of(row.name))
                                       : std::any_of(wanted.begin(), wanted.end(),
                                                     [&](const std::string& name) { return names(name, row); });
    const bool dropped = std::any_of(excluded.begin(), excluded.end(), [&](const std::string& name) { return names(name, row); });
    if (chosen && !dropped) {
      selection.rows.push_back(row);
    } else if (!chosen && wanted.empty()) {  // left out by default: say so
      const std::string variable = variable_of(row.name);
      if (selection.left_out.empty() || selection.left_out.back().first != variable) {
        selection.left_out.emplace_back(variable, 0);
      }
      ++selection.left_out.back().second;
    }
  }
  return selection;
}

}  // namespace variate::io
