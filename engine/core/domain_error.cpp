#include "engine/core/domain_error.h"

#include <sstream>

namespace variate {
namespace {

std::string format_value(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

std::string domain_message(const std::string& function, const std::string& argument, const std::string& requirement,
                           double value, const std::vector<int64_t>& index, int base) {
  // "REQUIREMENT|LABEL": the value is a measure of the argument (a simplex's sum), named.
  const auto bar = requirement.find('|');
  const std::string label = bar == std::string::npos ? "" : requirement.substr(bar + 1) + " ";
  std::string text = function + ": argument '" + argument + "' must be " + requirement.substr(0, bar) + ", got " +
                     label + format_value(value);
  if (index.empty()) return text;
  std::string position;
  for (size_t i = 0; i < index.size(); ++i) position += (i > 0 ? ", " : "") + std::to_string(index[i] + base);
  // Counted from 1, a vector's element is "3", as the model text writes sigma[3].
  if (base == 0 || index.size() > 1) position = "[" + position + "]";
  return text + " (at index " + position + ")";
}

}  // namespace

DomainError::DomainError(std::string function, std::string argument, std::string requirement, double value,
                         std::vector<int64_t> index)
    : ArgumentError(domain_message(function, argument, requirement, value, index, 0)),
      function_(std::move(function)), argument_(std::move(argument)), requirement_(std::move(requirement)),
      value_(value), index_(std::move(index)) {}

std::string DomainError::message(int base) const {
  return domain_message(function_, argument_, requirement_, value_, index_, base);
}

std::string DomainError::message(int base, const std::string& argument, const std::string& requirement) const {
  return domain_message(function_, argument, requirement, value_, index_, base);
}

}  // namespace variate
