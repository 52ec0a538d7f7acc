#pragma once
/// Tokens of the model language.

#include <string>
#include <string_view>

#include "engine/model/source.h"

namespace variate::model {

enum class TokenKind {
  identifier,
  integer,  // 12
  real,     // 2.5, .5, 3., 1e-10
  plus,
  minus,
  star,
  slash,
  caret,  // ^
  at,     // @ (matrix product)
  equals,
  plus_equals,  // +=
  equal_equal,  // ==
  not_equal,    // !=
  less,
  less_equal,
  greater,
  greater_equal,
  and_and,   // &&
  or_or,     // ||
  bang,      // !
  question,  // ?
  tilde,
  colon,
  comma,
  dot,  // '.' before a method: Normal(0, 1).log_prob(x)
  left_paren,
  right_paren,
  left_bracket,
  right_bracket,
  keyword_data,
  keyword_real,
  keyword_int,
  comment,  // '#' to the end of the line
  newline,  // ends a statement; never emitted inside ( ) or [ ]
  error,    // an unexpected character or invalid byte, already reported
  end_of_file,
};

struct Token {
  TokenKind kind = TokenKind::end_of_file;
  Span span;
  /// The token's text (a view into the Source); for a comment, the text after '#'.
  std::string_view text;
  /// The value of a number token.
  double value = 0;
  /// Inserted by the lexer to repair unbalanced brackets; errors at such a token were
  /// already reported, so the parser stays quiet about them.
  bool synthetic = false;
};

/// How messages name a kind: "'('", "end of line", "a name".
std::string describe(TokenKind kind);
/// How messages name a token: "'Normal'", "'1.5'", "end of line", "end of file".
std::string describe(const Token& token);
/// Source text in quotes for a message, shortened when long: "'1e'".
std::string quote(std::string_view text);

}  // namespace variate::model
