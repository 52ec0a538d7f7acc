#include "engine/services/reparam_choice.h"

#include <cstdio>
#include <sstream>

#include "engine/core/argument_error.h"

namespace variate::services {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

double centering_value(const std::string& name, const std::string& text) {
  size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(value >= 0 && value <= 1)) {
    throw ArgumentError(name + "'s centering must be a number in [0, 1], got '" + text + "'");
  }
  return value;
}

}  // namespace

ReparamChoice parse_reparam(const std::string& text) {
  if (text == "auto") return {ReparamChoice::Kind::automatic, {}};
  if (text == "none") return {ReparamChoice::Kind::none, {}};
  if (text == "noncentered") return {ReparamChoice::Kind::noncentered, {}};
  ReparamChoice choice{ReparamChoice::Kind::given, {}};
  for (const std::string& entry : split(text, ';')) {
    const size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw ArgumentError("expected auto, none, noncentered or NAME=CENTERING[,...][;NAME=...], got '" + text + "'");
    }
    const std::string name = entry.substr(0, equals);
    std::vector<double>& values = choice.given[name];
    for (const std::string& value : split(entry.substr(equals + 1), ','))
      values.push_back(centering_value(name, value));
    if (values.empty()) throw ArgumentError(name + " has no centering");
  }
  if (choice.given.empty()) throw ArgumentError("expected auto, none, noncentered or NAME=CENTERING, got ''");
  return choice;
}

std::string reparam_text_problem(const std::string& text) {
  try {
    parse_reparam(text);
    return "";
  } catch (const ArgumentError& e) {
    return e.what();
  }
}

std::string reparam_text(const model::Centering& centering) {
  std::string text;
  for (const auto& [name, values] : centering) {
    if (!text.empty()) text += ';';
    text += name + '=';
    for (size_t i = 0; i < values.size(); ++i) {
      char number[32];
      std::snprintf(number, sizeof number, "%.3g", values[i]);
      text += (i ? "," : "") + std::string(number);
    }
  }
  return text;
}

}  // namespace variate::services
