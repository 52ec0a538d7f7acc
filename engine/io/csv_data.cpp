// CSV tables: a header row of names, then one row per observation.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <ATen/ATen.h>

#include "variate/core/checks.h"
#include "variate/io/data_file.h"

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

}  // namespace

Data parse_csv_data(const std::string& text, const std::string& file_name) {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
  std::vector<bool> integer_columns;
  size_t line_number = 0;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      if (end == text.size()) break;
      continue;
    }
    const std::string where = file_name + ":" + std::to_string(line_number) + ":";
    const auto fields = split_line(line, where + "1: ");
    if (names.empty()) {
      for (const auto& field : fields) {
        if (field.text.empty()) {
          throw ArgumentError(where + std::to_string(field.column) +
                              ": empty column name in the header row");
        }
        for (const auto& name : names) {
          if (name == field.text) {
            throw ArgumentError(where + std::to_string(field.column) + ": column '" +
                                field.text + "' appears twice in the header row");
          }
        }
        names.push_back(field.text);
      }
      columns.resize(names.size());
      integer_columns.assign(names.size(), true);
      continue;
    }
    if (fields.size() != names.size()) {
      throw ArgumentError(where + "1: expected " + std::to_string(names.size()) +
                          " fields as in the header row, got " + std::to_string(fields.size()));
    }
    for (size_t c = 0; c < fields.size(); ++c) {
      const auto value = parse_number(fields[c].text);
      if (!value) {
        throw ArgumentError(where + std::to_string(fields[c].column) + ": column '" + names[c] +
                            "' must hold numbers, got '" + fields[c].text + "'");
      }
      columns[c].push_back(*value);
      // Beyond int64 (|value| >= 2^63) a column stays real: the conversion would be undefined.
      integer_columns[c] = integer_columns[c] && std::fabs(*value) < 0x1p63 &&
                           *value == std::floor(*value) &&
                           fields[c].text.find_first_of(".eE") == std::string::npos;
    }
    if (end == text.size()) break;
  }
  if (names.empty()) throw ArgumentError(file_name + ": the CSV file has no header row");
  Data data;
  for (size_t c = 0; c < names.size(); ++c) {
    at::Tensor column = columns[c].empty() ? at::zeros({0}, at::kDouble)
                                           : at::tensor(columns[c], at::kDouble);
    if (integer_columns[c] && !columns[c].empty()) column = column.to(at::kLong);
    data.set(names[c], column);
  }
  return data;
}

}  // namespace variate::io
