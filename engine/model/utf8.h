#pragma once
/// UTF-8 decoding for the model lexer and diagnostics (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF).

#include <cstddef>
#include <string>
#include <string_view>

namespace variate::model {

struct Utf8Char {
  char32_t code_point = 0;
  /// Bytes the character occupies; 0 when the bytes at the position are not valid UTF-8.
  std::size_t length = 0;
};

/// Decodes the character starting at `position` (which must be inside `text`).
Utf8Char decode_utf8(std::string_view text, std::size_t position);

/// "U+00E9".
std::string code_point_name(char32_t code_point);

}  // namespace variate::model
