#include "engine/io/data_file.h"

#include <fstream>
#include <sstream>

#include "engine/core/checks.h"

namespace variate::io {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

Data read_data_file(const std::string& path) {
  if (ends_with(path, ".csv")) return read_csv_data_file(path);
  if (ends_with(path, ".json")) return read_json_data_file(path);
  throw ArgumentError(path + ": unknown data format (expected a .json or .csv file)");
}

}  // namespace variate::io
