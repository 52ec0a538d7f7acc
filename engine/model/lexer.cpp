#include "engine/model/lexer.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include "engine/model/utf8.h"

namespace variate::model {
namespace {

// Integers stay exact in the double a number literal is stored as.
constexpr std::uint64_t kMaxExactInteger = std::uint64_t{1} << 53;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

TokenKind closer_of(TokenKind opener) {
  return opener == TokenKind::left_paren ? TokenKind::right_paren : TokenKind::right_bracket;
}

const char* bracket_text(TokenKind kind) {
  switch (kind) {
    case TokenKind::left_paren: return "(";
    case TokenKind::right_paren: return ")";
    case TokenKind::left_bracket: return "[";
    default: return "]";
  }
}

std::string quoted_bracket(TokenKind kind) { return std::string("'") + bracket_text(kind) + "'"; }

}  // namespace

Lexer::Lexer(const Source& source, Diagnostics& diagnostics)
    : text_(source.text()), diagnostics_(diagnostics) {}

Token Lexer::make(TokenKind kind, std::size_t begin, std::size_t end) const {
  Token token;
  token.kind = kind;
  token.span = {begin, end};
  token.text = text_.substr(begin, end - begin);
  return token;
}

Token Lexer::next() {
  while (true) {
    if (diagnostics_.stopped()) return make(TokenKind::end_of_file, text_.size(), text_.size());
    if (!queued_.empty()) {
      const Token token = queued_.front();
      queued_.pop_front();
      return token;
    }
    if (pos_ >= text_.size()) {
      if (!brackets_.empty()) {
        close_brackets_from(0, text_.size());
        continue;
      }
      return make(TokenKind::end_of_file, text_.size(), text_.size());
    }
    const char c = text_[pos_];
    const auto single = [&](TokenKind kind) {
      ++pos_;
      return make(kind, pos_ - 1, pos_);
    };
    const auto followed_by = [&](char next) { return pos_ + 1 < text_.size() && text_[pos_ + 1] == next; };
    const auto pair = [&](TokenKind kind) {
      pos_ += 2;
      return make(kind, pos_ - 2, pos_);
    };
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
      case '\f':
      case '\v':
        ++pos_;
        continue;
      case '\n': {
        const std::size_t at = pos_++;
        if (brackets_.empty()) return make(TokenKind::newline, at, at + 1);
        if (next_line_starts_statement(at)) {
          close_brackets_from(0, at);
          queued_.push_back(make(TokenKind::newline, at, at + 1));
        }
        continue;
      }
      case '#': return lex_comment();
      case '(':
      case '[': {
        brackets_.push_back(pos_);
        return single(c == '(' ? TokenKind::left_paren : TokenKind::left_bracket);
      }
      case ')':
      case ']': {
        Token token;
        if (close_bracket(c == ')' ? TokenKind::right_paren : TokenKind::right_bracket, token)) {
          return token;
        }
        continue;
      }
      case '+': return followed_by('=') ? pair(TokenKind::plus_equals) : single(TokenKind::plus);
      case '=': return followed_by('=') ? pair(TokenKind::equal_equal) : single(TokenKind::equals);
      case '!': return followed_by('=') ? pair(TokenKind::not_equal) : single(TokenKind::bang);
      case '<': return followed_by('=') ? pair(TokenKind::less_equal) : single(TokenKind::less);
      case '>': return followed_by('=') ? pair(TokenKind::greater_equal) : single(TokenKind::greater);
      case '&':
        if (followed_by('&')) return pair(TokenKind::and_and);
        break;
      case '|':
        if (followed_by('|')) return pair(TokenKind::or_or);
        break;
      case '?': return single(TokenKind::question);
      case '-': return single(TokenKind::minus);
      case '*': return single(TokenKind::star);
      case '/': return single(TokenKind::slash);
      case '^': return single(TokenKind::caret);
      case '@': return single(TokenKind::at);
      case '~': return single(TokenKind::tilde);
      case ':': return single(TokenKind::colon);
      case ',': return single(TokenKind::comma);
      default: break;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      return lex_number();
    }
    if (c == '.') return single(TokenKind::dot);
    if (is_name_start(c)) {
      const std::size_t begin = pos_;
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
      Token token = make(TokenKind::identifier, begin, pos_);
      if (token.text == "data") token.kind = TokenKind::keyword_data;
      if (token.text == "real") token.kind = TokenKind::keyword_real;
      if (token.text == "int") token.kind = TokenKind::keyword_int;
      return token;
    }
    return lex_unexpected();
  }
}

Token Lexer::lex_number() {
  const std::size_t begin = pos_;
  const std::size_t n = text_.size();
  bool is_real = false;
  std::string problem;
  bool malformed = false;
  while (pos_ < n && is_digit(text_[pos_])) ++pos_;
  if (pos_ < n && text_[pos_] == '.') {
    is_real = true;
    ++pos_;
    while (pos_ < n && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < n && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    is_real = true;
    ++pos_;
    if (pos_ < n && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ < n && is_digit(text_[pos_])) {
      while (pos_ < n && is_digit(text_[pos_])) ++pos_;
    } else {
      malformed = true;
      problem = ": the exponent has no digits";
    }
  }
  // Letters or another '.' stuck to a number ("2x", "1.2.3") make one malformed token
  // rather than a number followed by a surprise.
  if (pos_ < n && (is_name_char(text_[pos_]) || text_[pos_] == '.')) {
    malformed = true;
    while (pos_ < n && (is_name_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
  }
  Token token = make(is_real ? TokenKind::real : TokenKind::integer, begin, pos_);
  if (malformed) {
    diagnostics_.error(token.span, "malformed number " + quote(token.text) + problem);
    return token;
  }
  const char* first = token.text.data();
  const char* last = first + token.text.size();
  if (is_real) {
    const auto result = std::from_chars(first, last, token.value);
    if (result.ec != std::errc() || result.ptr != last) {
      diagnostics_.error(token.span, "number " + quote(token.text) + " is out of range");
      token.value = 0;
    }
  } else {
    std::uint64_t value = 0;
    const auto result = std::from_chars(first, last, value);
    if (result.ec != std::errc() || result.ptr != last || value > kMaxExactInteger) {
      diagnostics_.error(token.span, "integer " + quote(token.text) +
                                         " is too large (the largest is 9007199254740992)");
      value = 0;
    }
    token.value = static_cast<double>(value);
  }
  return token;
}

Token Lexer::lex_comment() {
  const std::size_t begin = pos_;
  ++pos_;  // '#'
  while (pos_ < text_.size() && text_[pos_] != '\n') {
    const Utf8Char c = decode_utf8(text_, pos_);
    if (c.length == 0) {
      char message[40];
      std::snprintf(message, sizeof message, "invalid UTF-8 byte 0x%02X",
                    static_cast<unsigned char>(text_[pos_]));
      diagnostics_.error({pos_, pos_ + 1}, message);
      ++pos_;
    } else {
      pos_ += c.length;
    }
  }
  std::size_t end = pos_;
  while (end > begin + 1 && (text_[end - 1] == ' ' || text_[end - 1] == '\t' ||
                             text_[end - 1] == '\r')) {
    --end;
  }
  Token token = make(TokenKind::comment, begin, end);
  token.text = text_.substr(begin + 1, end - begin - 1);
  return token;
}

Token Lexer::lex_unexpected() {
  const std::size_t begin = pos_;
  const Utf8Char c = decode_utf8(text_, pos_);
  std::string message;
  if (c.length == 0) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "invalid UTF-8 byte 0x%02X",
                  static_cast<unsigned char>(text_[pos_]));
    message = buffer;
    ++pos_;
  } else {
    pos_ += c.length;
    const std::string shown(text_.substr(begin, c.length));
    if (c.code_point < 0x80 && std::isprint(static_cast<int>(c.code_point))) {
      message = "unexpected character '" + shown + "'";
    } else if (c.code_point < 0x80 || (c.code_point >= 0x80 && c.code_point < 0xA0)) {
      message = "unexpected character " + code_point_name(c.code_point);
    } else {
      message = "unexpected character '" + shown + "' (" + code_point_name(c.code_point) + ")";
    }
  }
  const Token token = make(TokenKind::error, begin, pos_);
  diagnostics_.error(token.span, message);
  return token;
}

bool Lexer::close_bracket(TokenKind closer, Token& token) {
  const std::size_t at = pos_++;
  if (brackets_.empty()) {
    diagnostics_.error({at, at + 1}, "unmatched " + quoted_bracket(closer));
    return false;
  }
  const std::size_t top = brackets_.back();
  const TokenKind top_kind = bracket_kind(top);
  if (closer_of(top_kind) == closer) {
    brackets_.pop_back();
    token = make(closer, at, at + 1);
    return true;
  }
  diagnostics_.error({at, at + 1}, "closing " + quoted_bracket(closer) + " does not match " +
                                       quoted_bracket(top_kind));
  diagnostics_.note({top, top + 1}, quoted_bracket(top_kind) + " opened here");
  std::size_t match = brackets_.size() - 1;
  while (match > 0 && closer_of(bracket_kind(brackets_[match - 1])) != closer) --match;
  if (match > 0) {
    // An inner bracket was left open ("a[f(x]"): close it, then close the outer one here.
    for (std::size_t i = brackets_.size(); i-- > match;) {
      Token repair = make(closer_of(bracket_kind(brackets_[i])), at, at);
      repair.synthetic = true;
      queued_.push_back(repair);
    }
    brackets_.resize(match - 1);
    queued_.push_back(make(closer, at, at + 1));
    token = queued_.front();
    queued_.pop_front();
    return true;
  }
  // A wrong closer for the innermost bracket ("f(a]"): read it as the right one.
  brackets_.pop_back();
  token = make(closer_of(top_kind), at, at + 1);
  token.synthetic = true;
  return true;
}

bool Lexer::next_line_starts_statement(std::size_t newline) const {
  std::size_t p = newline + 1;
  const std::size_t n = text_.size();
  if (p >= n) return false;
  if (text_.compare(p, 4, "data") == 0 && p + 4 < n &&
      (text_[p + 4] == ' ' || text_[p + 4] == '\t')) {
    return true;
  }
  if (!is_name_start(text_[p])) return false;
  // A '~' outside the line's own brackets cannot continue an expression: it is the next
  // statement. A closer before it ("L] ~") means the line continues the open brackets.
  int depth = 0;
  for (; p < n && text_[p] != '\n' && text_[p] != '#'; ++p) {
    const char c = text_[p];
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && --depth < 0) return false;
    if (c == '~' && depth == 0) return true;
  }
  return false;
}

void Lexer::close_brackets_from(std::size_t depth, std::size_t at) {
  for (std::size_t i = depth; i < brackets_.size() && !diagnostics_.stopped(); ++i) {
    const std::size_t open = brackets_[i];
    diagnostics_.error({open, open + 1}, quoted_bracket(bracket_kind(open)) + " was never closed");
  }
  // Past the error cap nothing more is read, so a file of a million '(' queues nothing.
  for (std::size_t i = brackets_.size(); i-- > depth && !diagnostics_.stopped();) {
    Token repair = make(closer_of(bracket_kind(brackets_[i])), at, at);
    repair.synthetic = true;
    queued_.push_back(repair);
  }
  brackets_.resize(depth);
}

TokenKind Lexer::bracket_kind(std::size_t offset) const {
  return text_[offset] == '(' ? TokenKind::left_paren : TokenKind::left_bracket;
}

std::vector<Token> tokenize(const Source& source, Diagnostics& diagnostics) {
  Lexer lexer(source, diagnostics);
  std::vector<Token> tokens;
  do {
    tokens.push_back(lexer.next());
  } while (tokens.back().kind != TokenKind::end_of_file);
  return tokens;
}

}  // namespace variate::model
