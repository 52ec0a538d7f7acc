#include "engine/cli/summary_file.h"

#include <fstream>

#include "engine/core/argument_error.h"

namespace variate::cli {

void write_summary_file(const std::string& path, const nlohmann::ordered_json& document, int indent) {
  std::ofstream file(path);
  file << document.dump(indent) << "\n";
  if (!file) throw ArgumentError("cannot write the summary to '" + path + "'");
}

}  // namespace variate::cli
