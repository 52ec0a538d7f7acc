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

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ArgumentError(path + ": cannot open file");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ArgumentError(path + ": cannot read file");
  return content.str();
}

Data read_data_file(const std::string& path) {
  if (ends_with(path, ".csv")) return read_csv_data_file(path);
  if (ends_with(path, ".json")) return read_json_data_file(path);
  throw ArgumentError(path + ": unknown data format (expected a .json or .csv file)");
}

}  // namespace variate::io
