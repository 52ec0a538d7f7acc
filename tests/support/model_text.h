#pragma once
/// Model text compiled against JSON data, and a value's elements, for the language's tests.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"

namespace model_text {

inline variate::model::CompileResult compile(const std::string& text, const std::string& json) {
  const variate::Data bound = variate::io::parse_json_data(json, "d.json");
  return variate::model::compile_model(variate::model::Source("m.vmod", text), &bound);
}

/// Row-major, as doubles.
inline std::vector<double> elements_of(const at::Tensor& t) {
  const at::Tensor flat = t.to(at::kDouble).contiguous().reshape(-1);
  return std::vector<double>(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
}

/// The first line of a failed compilation's report.
inline std::string first_error(const variate::model::CompileResult& result) {
  const std::string report = result.report();
  return report.substr(0, report.find('\n'));
}

/// The first line of the report of `text` compiled against `json`; empty when it compiles.
inline std::string first_error_of(const std::string& text, const std::string& json) {
  const variate::model::CompileResult result = compile(text, json);
  return result.ok() ? std::string() : first_error(result);
}

/// Empty when `text` parses, prints back as written and parses again to an equal tree;
/// otherwise what went wrong.
inline std::string round_trip_problem(const std::string& text) {
  const variate::model::Source source("m.vmod", text);
  const auto parsed = variate::model::parse(source);
  if (!parsed.ok()) return parsed.diagnostics.format(source);
  const std::string printed = variate::model::to_string(parsed.program);
  if (printed != text) return "printed as:\n" + printed;
  const variate::model::Source again("again.vmod", printed);
  if (!variate::model::structurally_equal(parsed.program, variate::model::parse(again).program)) {
    return "parsed again to another tree";
  }
  return {};
}

/// Empty when `got` equals `expected` element by element to 1e-12 relative (infinities
/// exactly); otherwise the first difference.
inline std::string elements_problem(const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() != expected.size()) {
    return std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = expected[i];
    const bool same =
        std::isinf(want) ? got[i] == want : std::abs(got[i] - want) <= 1e-12 * std::max(1.0, std::abs(want));
    if (!same)
      return "element " + std::to_string(i) + ": " + std::to_string(got[i]) + ", expected " + std::to_string(want);
  }
  return {};
}

}  // namespace model_text
