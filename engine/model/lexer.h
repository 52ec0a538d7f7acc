#pragma once
/// The lexer of the model language: turns source text into tokens, one at a time.
///
/// Line breaks end statements except inside ( ) or [ ], so a call may continue over
/// several lines. Brackets are balanced here: an unmatched closer is reported and dropped,
/// a mismatched or missing closer is reported and repaired with a synthetic token, so the
/// parser never sees unbalanced brackets. When a bracket is left open and the next line
/// starts in column 1 with something that can only begin a statement ('data NAME' or
/// 'NAME ... ~' with the '~' outside brackets), the open brackets are reported and closed
/// there, which lets the rest of the file be checked. Errors are reported to Diagnostics;
/// the lexer never throws, and it runs in time linear in the size of the text.

#include <cstddef>
#include <deque>
#include <vector>

#include "engine/model/diagnostic.h"
#include "engine/model/source.h"
#include "engine/model/token.h"

namespace variate::model {

class Lexer {
 public:
  /// Both must outlive the lexer.
  Lexer(const Source& source, Diagnostics& diagnostics);

  /// The next token, comments included; end_of_file from then on (also once the
  /// diagnostics hit their error cap).
  Token next();

 private:
  Token lex_number();
  Token lex_comment();
  Token lex_unexpected();
  /// Handles ')' or ']' at pos_; returns false when the closer was dropped.
  bool close_bracket(TokenKind closer, Token& token);
  bool next_line_starts_statement(std::size_t newline) const;
  /// Reports the open brackets above `depth` as never closed and queues their closers.
  void close_brackets_from(std::size_t depth, std::size_t at);
  TokenKind bracket_kind(std::size_t offset) const;
  Token make(TokenKind kind, std::size_t begin, std::size_t end) const;

  std::string_view text_;
  Diagnostics& diagnostics_;
  std::size_t pos_ = 0;
  /// Offsets of the open '(' and '[' (8 bytes each: a file of ten million '(' stays small).
  std::vector<std::size_t> brackets_;
  std::deque<Token> queued_;
};

/// All tokens of a source through end_of_file, comments included.
std::vector<Token> tokenize(const Source& source, Diagnostics& diagnostics);

}  // namespace variate::model
