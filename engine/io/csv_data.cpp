// CSV tables: a header row of names, then one row per observation.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <unordered_set>

#include <ATen/ATen.h>

#include "engine/core/byte_order_mark.h"
#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/io/number_column.h"

namespace variate::io {
namespace {

struct Field {
  std::string text;
  size_t column;  // 1-based, where the field starts
};

// Splits one line on commas, honouring double quotes ("a,b" and "" escapes).
std::vector<Field> split_line(const std::string& line, const std::string& where) {
  std::vector<Field> fields;
  std::string current;
  size_t start = 1;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        current += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        current += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back({current, start});
      current.clear();
      start = i + 2;
    } else if (c != '\r') {
      current += c;
    }
  }
  if (quoted) throw ArgumentError(where + "unterminated quoted field");
  fields.push_back({current, start});
  for (auto& field : fields) {  // trim spaces around fields
    const auto first = field.text.find_first_not_of(" \t");
    const auto last = field.text.find_last_not_of(" \t");
    field.text = first == std::string::npos ? "" : field.text.substr(first, last - first + 1);
  }
  return fields;
}

std::optional<double> parse_number(const std::string& text) {
  if (text == "NaN" || text == "nan" || text == "NA") return std::nan("");
  if (text == "Inf" || text == "inf" || text == "Infinity") return INFINITY;
  if (text == "-Inf" || text == "-inf" || text == "-Infinity") return -INFINITY;
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE) return std::nullopt;
  return value;
}

// Reads the table a line at a time: the header's names, then each row's numbers into its
// column.
class CsvReader {
 public:
  explicit CsvReader(std::string file_name) : file_name_(std::move(file_name)) {}

  void line(std::string line) {
    if (++line_number_ == 1) drop_byte_order_mark(line);
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    const std::string where = file_name_ + ":" + std::to_string(line_number_) + ":";
    const auto fields = split_line(line, where + "1: ");
    if (names_.empty()) {
      header(fields, where);
      return;
    }
    if (fields.size() != names_.size()) {
      throw ArgumentError(where + "1: expected " + std::to_string(names_.size()) +
                          " fields as in the header row, got " + std::to_string(fields.size()));
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      const auto value = parse_number(fields[c].text);
      if (!value) {
        throw ArgumentError(where + std::to_string(fields[c].column) + ": column '" + names_[c] +
                            "' must hold numbers, got '" + fields[c].text + "'");
      }
      // An integer within int64 (|value| < 2^63) written without '.', 'e' or 'E' keeps its
      // column integer; beyond, its int64 conversion would be undefined.
      if (fields[c].text.find_first_of(".eE") == std::string::npos && *value == std::floor(*value) &&
          std::fabs(*value) < 0x1p63) {
        columns_[c].push_integer(static_cast<int64_t>(*value));
      } else {
        columns_[c].push_real(*value);
      }
    }
  }

  Data take() {
    if (names_.empty()) throw ArgumentError(file_name_ + ": the CSV file has no header row");
    Data data;
    for (size_t c = 0; c < names_.size(); ++c) {
      const int64_t rows = columns_[c].size();
      data.set(names_[c], columns_[c].take({rows}));
    }
    return data;
  }

 private:
  void header(const std::vector<Field>& fields, const std::string& where) {
    std::unordered_set<std::string> seen;  // a header of 10^5 names is checked in linear time
    for (const auto& field : fields) {
      if (field.text.empty()) {
        throw ArgumentError(where + std::to_string(field.column) + ": empty column name in the header row");
      }
      if (!seen.insert(field.text).second) {
        throw ArgumentError(where + std::to_string(field.column) + ": column '" + field.text +
                            "' appears twice in the header row");
      }
      names_.push_back(field.text);
    }
    columns_.resize(names_.size());
  }

  std::string file_name_;
  size_t line_number_ = 0;
  std::vector<std::string> names_;
  std::vector<NumberColumn> columns_;
};

}  // namespace

Data parse_csv_data(const std::string& text, const std::string& file_name) {
  CsvReader reader(file_name);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    reader.line(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return reader.take();
}

Data read_csv_data_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ArgumentError(path + ": cannot open file");
  CsvReader reader(path);
  std::string line;
  while (std::getline(in, line)) reader.line(line);
  if (in.bad()) throw ArgumentError(path + ": cannot read file");
  return reader.take();
}

}  // namespace variate::io
