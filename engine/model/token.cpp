#include "engine/model/token.h"

namespace variate::model {
namespace {

// Longer token texts are shortened in messages (a 10,000-digit number is not helpful).
constexpr std::size_t kMaxQuoted = 32;

}  // namespace

std::string quote(std::string_view text) {
  if (text.size() > kMaxQuoted) return "'" + std::string(text.substr(0, kMaxQuoted)) + "...'";
  return "'" + std::string(text) + "'";
}

std::string describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::identifier: return "a name";
    case TokenKind::integer: return "an integer";
    case TokenKind::real: return "a number";
    case TokenKind::plus: return "'+'";
    case TokenKind::minus: return "'-'";
    case TokenKind::star: return "'*'";
    case TokenKind::slash: return "'/'";
    case TokenKind::caret: return "'^'";
    case TokenKind::at: return "'@'";
    case TokenKind::equals: return "'='";
    case TokenKind::plus_equals: return "'+='";
    case TokenKind::equal_equal: return "'=='";
    case TokenKind::not_equal: return "'!='";
    case TokenKind::less: return "'<'";
    case TokenKind::less_equal: return "'<='";
    case TokenKind::greater: return "'>'";
    case TokenKind::greater_equal: return "'>='";
    case TokenKind::and_and: return "'&&'";
    case TokenKind::or_or: return "'||'";
    case TokenKind::bang: return "'!'";
    case TokenKind::question: return "'?'";
    case TokenKind::tilde: return "'~'";
    case TokenKind::colon: return "':'";
    case TokenKind::comma: return "','";
    case TokenKind::dot:
      return "'.'";
    case TokenKind::left_paren: return "'('";
    case TokenKind::right_paren: return "')'";
    case TokenKind::left_bracket: return "'['";
    case TokenKind::right_bracket: return "']'";
    case TokenKind::keyword_data: return "'data'";
    case TokenKind::keyword_real: return "'real'";
    case TokenKind::keyword_int: return "'int'";
    case TokenKind::comment: return "a comment";
    case TokenKind::newline: return "end of line";
    case TokenKind::error: return "an invalid character";
    case TokenKind::end_of_file: return "end of file";
  }
  return "a token";
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::identifier:
    case TokenKind::integer:
    case TokenKind::real:
    case TokenKind::error:
      return quote(token.text);
    default:
      return describe(token.kind);
  }
}

}  // namespace variate::model
