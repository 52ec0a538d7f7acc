#pragma once
// A command's --summary-json document written to its file.

#include <string>

#include <nlohmann/json.hpp>

namespace variate::cli {

/// @throws ArgumentError "cannot write the summary to 'PATH'".
void write_summary_file(const std::string& path, const nlohmann::ordered_json& document, int indent = 1);

}  // namespace variate::cli
