#include "engine/core/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace variate {

std::string format_number(double value, bool is_integer) {
  char buffer[64];
  if (is_integer && std::abs(value) <= 9007199254740992.0 && value == std::trunc(value)) {
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::int64_t>(value));
    return std::string(buffer, result.ptr);
  }
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  // 1e-08 as written, 1e-8.
  if (const auto e = text.find('e'); e != std::string::npos) {
    const size_t digits = e + 2;
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
  }
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

}  // namespace variate
