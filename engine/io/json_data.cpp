// CmdStan JSON data, read with nlohmann::json.

#include <filesystem>
#include <limits>
#include <optional>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "variate/core/checks.h"
#include "variate/core/shape.h"
#include "variate/io/data_file.h"
#include "variate/io/idx_file.h"
#include "variate/io/text_position.h"

namespace variate::io {
namespace {

using json = nlohmann::json;

struct Collected {
  std::vector<double> values;
  bool all_integers = true;
  Shape shape;
};

std::optional<double> special_number(const std::string& s) {
  const double inf = std::numeric_limits<double>::infinity();
  if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Inf" || s == "inf" || s == "Infinity" || s == "+Inf" || s == "+Infinity") return inf;
  if (s == "-Inf" || s == "-inf" || s == "-Infinity") return -inf;
  return std::nullopt;
}

// Flattens `node` row-major into `out`, checking that nested lists are rectangular.
void collect(const json& node, const std::string& name, size_t depth, Collected& out,
             const std::string& where) {
  if (node.is_array()) {
    const auto size = static_cast<int64_t>(node.size());
    if (depth == out.shape.size()) {
      if (depth > 0 && !out.values.empty()) {
        throw ArgumentError(where + "data variable '" + name +
                            "' mixes numbers and lists at the same depth");
      }
      out.shape.push_back(size);
    } else if (depth > out.shape.size() || out.shape[depth] != size) {
      throw ArgumentError(where + "data variable '" + name +
                          "' is a ragged array: lists at depth " + std::to_string(depth + 1) +
                          " have different lengths (" + std::to_string(out.shape[depth]) +
                          " and " + std::to_string(size) + ")");
    }
    for (const auto& element : node) collect(element, name, depth + 1, out, where);
    return;
  }
  if (depth != out.shape.size()) {
    throw ArgumentError(where + "data variable '" + name +
                        "' is a ragged array: a number where a list was expected");
  }
  if (node.is_number_integer() || node.is_number_unsigned()) {
    out.values.push_back(node.get<double>());
    // Beyond int64 the tensor stays real: converting it to int64 would be undefined.
    if (node.is_number_unsigned() && node.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())) {
      out.all_integers = false;
    }
  } else if (node.is_number_float()) {
    out.values.push_back(node.get<double>());
    out.all_integers = false;  // a number written as a real ("1.0") stays real
  } else if (node.is_string() && special_number(node.get<std::string>())) {
    out.values.push_back(*special_number(node.get<std::string>()));
    out.all_integers = false;
  } else if (node.is_boolean()) {
    out.values.push_back(node.get<bool>() ? 1.0 : 0.0);
  } else {
    throw ArgumentError(where + "data variable '" + name + "' must hold numbers, got " +
                        std::string(node.type_name()) +
                        (node.is_string() ? " \"" + node.get<std::string>() + "\"" : ""));
  }
}

at::Tensor to_tensor(const Collected& c) {
  at::Tensor values = at::tensor(c.values, at::kDouble);
  if (c.values.empty()) values = at::zeros({0}, at::kDouble);
  values = values.reshape(c.shape);
  return c.all_integers && !c.values.empty() ? values.to(at::kLong) : values;
}

// `{"idx_images": "train-images-idx3-ubyte.gz", "limit": 1000}`: images [n, rows * cols]
// scaled to [0, 1]; `{"idx_labels": ...}`: labels [n]. Paths are relative to the JSON file.
at::Tensor idx_value(const json& node, const std::string& name, const std::string& file_name) {
  const std::string where = file_name + ": '" + name + "': ";
  const bool images = node.contains("idx_images");
  if (images == node.contains("idx_labels") || !node[images ? "idx_images" : "idx_labels"].is_string()) {
    throw ArgumentError(where + "an object names an IDX file, as {\"idx_images\": \"t10k-images-idx3-ubyte.gz\"} "
                        "or {\"idx_labels\": \"t10k-labels-idx1-ubyte.gz\"}");
  }
  std::optional<int64_t> limit;
  for (const auto& [key, value] : node.items()) {
    if (key == "limit" && value.is_number_integer() && value.get<int64_t>() >= 0) {
      limit = value.get<int64_t>();
    } else if (key != "idx_images" && key != "idx_labels") {
      throw ArgumentError(where + "unknown key '" + key + "' (an IDX value takes idx_images or idx_labels, "
                          "and limit: a count of items)");
    }
  }
  std::filesystem::path path = node[images ? "idx_images" : "idx_labels"].get<std::string>();
  if (path.is_relative()) path = std::filesystem::path(file_name).parent_path() / path;
  const at::Tensor bytes = read_idx_bytes(path.string(), limit);
  if (!images) return bytes.to(at::kLong);
  if (bytes.dim() != 3) {
    throw ArgumentError(where + path.string() + " holds " + std::to_string(bytes.dim()) +
                        "-dimensional items, not images (idx3)");
  }
  return bytes.reshape({bytes.size(0), bytes.size(1) * bytes.size(2)}).to(at::kDouble) / 255.0;
}

}  // namespace

Data parse_json_data(const std::string& text, const std::string& file_name) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; users need line:column.
    const size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string reason = e.what();
    const auto colon = reason.find("syntax error");
    if (colon != std::string::npos) reason = reason.substr(colon);
    throw ArgumentError(file_name + ":" + line_column(text, offset) + ": malformed JSON: " +
                        reason);
  } catch (const json::out_of_range& e) {
    // "number overflow parsing '1e999'" comes without a position: the number's first
    // occurrence is where it is.
    const std::string reason = e.what();
    const auto quote = reason.find('\'');
    const std::string number = quote == std::string::npos ? "" : reason.substr(quote + 1, reason.rfind('\'') - quote - 1);
    const size_t offset = number.empty() ? std::string::npos : text.find(number);
    if (offset == std::string::npos) throw ArgumentError(file_name + ": malformed JSON: " + reason);
    throw ArgumentError(file_name + ":" + line_column(text, offset) + ": the number " + number +
                        " is beyond the range of a double");
  }
  if (!document.is_object()) {
    throw ArgumentError(file_name + ": JSON data must be an object of named values, got " +
                        std::string(document.type_name()));
  }
  Data data;
  const std::string where = file_name + ": ";
  for (const auto& [name, node] : document.items()) {
    if (node.is_object()) {
      data.set(name, idx_value(node, name, file_name));
      continue;
    }
    Collected collected;
    collect(node, name, 0, collected, where);
    data.set(name, to_tensor(collected));
  }
  return data;
}

}  // namespace variate::io
