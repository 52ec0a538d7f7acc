#include "engine/services/setting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/core/argument_error.h"

namespace variate::services {
namespace {

std::string joined(const std::vector<std::string>& words, const std::string& last) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == words.size() ? " " + last + " " : ", ") + words[i];
  }
  return text;
}

std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<int64_t>(x));  // 60, not 6e+01
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  // The shortest of %g's forms that reads back to x.
  for (int digits = 1; digits <= 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, x);
    if (std::strtod(shorter, nullptr) == x) return shorter;
  }
  return buffer;
}

}  // namespace

std::string SettingDescriptor::flag() const {
  if (!flag_name.empty()) return flag_name;
  std::string text = "--" + name;
  std::replace(text.begin(), text.end(), '_', '-');
  return text;
}

std::string SettingDescriptor::negative_flag() const { return "--no-" + flag().substr(2); }

SettingValue SettingDescriptor::parse(const std::string& text) const {
  const auto fail = [&](const std::string& expected) -> SettingValue {
    throw ArgumentError(flag() + ": expected " + expected + ", got '" + text + "'");
  };
  switch (kind) {
    case SettingKind::integer: {
      size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(text, &used);
      } catch (const std::exception&) {
        return fail("a whole number");
      }
      if (used != text.size()) return fail("a whole number");
      return checked(static_cast<int64_t>(value));
    }
    case SettingKind::real: {
      size_t used = 0;
      double value = 0;
      try {
        value = std::stod(text, &used);
      } catch (const std::exception&) {
        return fail("a number");
      }
      if (used != text.size()) return fail("a number");
      return checked(value);
    }
    case SettingKind::seed: {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        return fail("a whole number from 0 to 18446744073709551615");
      }
      try {
        return static_cast<uint64_t>(std::stoull(text));
      } catch (const std::exception&) {
        return fail("a whole number from 0 to 18446744073709551615");
      }
    }
    case SettingKind::flag:
      if (text == "true" || text == "1" || text == "on") return true;
      if (text == "false" || text == "0" || text == "off") return false;
      return fail("true or false");
    case SettingKind::tristate:
      if (text == "auto" || text == "on" || text == "off") return text;
      if (text == "true" || text == "1") return std::string("on");
      if (text == "false" || text == "0") return std::string("off");
      return fail("auto, on or off");
    case SettingKind::choice:
    case SettingKind::text:
    case SettingKind::device:
      return checked(text);
  }
  return fail("a value");
}

SettingValue SettingDescriptor::checked(SettingValue value) const {
  const auto fail = [&](const std::string& expected) -> SettingValue {
    throw ArgumentError(flag() + ": expected " + expected + ", got " + format(value));
  };
  const auto in_range = [&](double x) {
    return (min_excluded ? x > min : x >= min) && x <= max && !std::isnan(x);
  };
  const auto range = [&] {
    if (std::isinf(max)) return std::string(min_excluded ? "above " : "at least ") + number_text(min);
    if (std::isinf(min)) return "at most " + number_text(max);
    return std::string(min_excluded ? "above " : "from ") + number_text(min) + (min_excluded ? " and up to " : " to ") +
           number_text(max);
  };
  switch (kind) {
    case SettingKind::integer: {
      if (std::holds_alternative<double>(value)) {  // a JSON reader's number
        const double x = std::get<double>(value);
        if (x != std::floor(x)) return fail("a whole number");
        value = static_cast<int64_t>(x);
      }
      if (std::holds_alternative<uint64_t>(value)) value = static_cast<int64_t>(std::get<uint64_t>(value));
      if (!std::holds_alternative<int64_t>(value)) return fail("a whole number");
      if (!in_range(static_cast<double>(std::get<int64_t>(value)))) return fail("a whole number " + range());
      return value;
    }
    case SettingKind::real: {
      if (std::holds_alternative<int64_t>(value)) value = static_cast<double>(std::get<int64_t>(value));
      if (std::holds_alternative<uint64_t>(value)) value = static_cast<double>(std::get<uint64_t>(value));
      if (!std::holds_alternative<double>(value)) return fail("a number");
      if (!in_range(std::get<double>(value))) return fail("a number " + range());
      return value;
    }
    case SettingKind::seed:
      if (std::holds_alternative<int64_t>(value) && std::get<int64_t>(value) >= 0) {
        return static_cast<uint64_t>(std::get<int64_t>(value));
      }
      if (!std::holds_alternative<uint64_t>(value)) return fail("a whole number from 0 to 18446744073709551615");
      return value;
    case SettingKind::flag:
      if (!std::holds_alternative<bool>(value)) return fail("true or false");
      return value;
    case SettingKind::tristate:
      if (std::holds_alternative<bool>(value)) return std::string(std::get<bool>(value) ? "on" : "off");
      if (!std::holds_alternative<std::string>(value)) return fail("auto, on or off");
      return parse(std::get<std::string>(value));
    case SettingKind::choice: {
      if (!std::holds_alternative<std::string>(value)) return fail(joined(choices, "or"));
      const std::string& text = std::get<std::string>(value);
      if (std::find(choices.begin(), choices.end(), text) == choices.end()) return fail(joined(choices, "or"));
      return value;
    }
    case SettingKind::device: {
      if (!std::holds_alternative<std::string>(value)) return fail("cpu, cuda or cuda:N");
      const std::string& text = std::get<std::string>(value);
      const bool indexed = text.rfind("cuda:", 0) == 0 && text.size() > 5 &&
                           text.find_first_not_of("0123456789", 5) == std::string::npos;
      if (text != "cpu" && text != "cuda" && !indexed) return fail("cpu, cuda or cuda:N");
      return value;
    }
    case SettingKind::text: {
      if (!std::holds_alternative<std::string>(value)) return fail("text");
      if (check) {
        if (const std::string problem = check(std::get<std::string>(value)); !problem.empty()) {
          throw ArgumentError(flag() + ": " + problem);
        }
      }
      return value;
    }
  }
  return value;
}

std::string SettingDescriptor::format(const SettingValue& value) const {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, double>) {
          return number_text(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else {
          return std::to_string(x);
        }
      },
      value);
}

std::string SettingDescriptor::default_text() const {
  return default_value ? format(*default_value) : none_means;
}

std::string SettingDescriptor::full_help() const {
  std::string text = help;
  if (!unit.empty()) text += " [" + unit + "]";
  if (kind == SettingKind::flag) return text;
  return text + " (default: " + default_text() + ")";
}

}  // namespace variate::services
