#include "engine/model/parser.h"

#include <deque>
#include <unordered_set>

#include "engine/model/comments.h"
#include "engine/model/lexer.h"
#include "engine/model/printer.h"

namespace variate::model {
namespace {

// Thrown once an error is recorded; the statement loop catches it and resynchronizes.
struct SyntaxError {};

class Parser {
 public:
  Parser(const Source& source, Diagnostics& diagnostics)
      : source_(source), diagnostics_(diagnostics), lexer_(source, diagnostics) {}

  Program parse_program();

 private:
  // Counts a level of nesting (and of tree height) while a recursive rule runs.
  class Nest {
   public:
    Nest(Parser& parser, const Token& at) : parser_(parser) {
      ++parser_.nesting_;
      ++parser_.height_;
      if (parser_.nesting_ > kMaxNesting) {
        parser_.fail(at, "too many nested parentheses, brackets or operators (the limit is " +
                             std::to_string(kMaxNesting) + ")");
      }
    }
    ~Nest() {
      --parser_.nesting_;
      --parser_.height_;
    }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& parser_;
  };

  // Counts the operators of a left-associative chain ("a + b + c" nests to the left).
  class Chain {
   public:
    explicit Chain(Parser& parser) : parser_(parser) {}
    ~Chain() { parser_.height_ -= length_; }
    void add(const Token& op) {
      ++length_;
      if (++parser_.height_ > kMaxExpressionHeight) {
        parser_.fail(op, "expression too long (the limit is " +
                             std::to_string(kMaxExpressionHeight) + " nested operations)");
      }
    }
    Chain(const Chain&) = delete;
    Chain& operator=(const Chain&) = delete;

   private:
    Parser& parser_;
    int length_ = 0;
  };

  const Token& peek(std::size_t ahead = 0);
  bool at(TokenKind kind) { return peek().kind == kind; }
  Token advance();
  Token expect(TokenKind kind, const std::string& message);
  [[noreturn]] void fail(const Token& token, const std::string& message);
  std::string got() { return ", got " + describe(peek()); }

  Statement parse_statement();
  DataDecl parse_data();
  Token parse_bounds(const std::string& quoted, std::optional<Expr>& lower, std::optional<Expr>& upper);
  RandomStmt parse_bounded(const Token& name);
  RandomStmt parse_random(const Token& name, std::vector<Expr> dims);
  RandomStmt parse_constrained(const Token& name);
  std::vector<Expr> parse_dims(const std::string& what);
  static std::string with_dims(std::string_view name, const std::vector<Expr>& dims);
  Expr parse_distribution();

  ElementDefinition parse_element(const Token& name, std::vector<Expr> dims);
  TargetIncrement parse_target(const Token& target);
  FunctionDecl parse_function();
  ValueType parse_value_type(const std::string& what);
  std::optional<Truncation> parse_truncation();

  Expr parse_expression();
  // A level of left-associative operators looser than '+' (0: '||', ..., 3: '<').
  Expr parse_binary_level(int level);
  Expr parse_additive();
  Expr parse_multiplicative();
  Expr parse_vector();
  Expr parse_unary();
  Expr parse_power();
  Expr parse_postfix();
  Expr parse_primary();
  Expr parse_call(const Token& name);
  Expr parse_method(Expr distribution);
  Expr parse_index(Expr base);
  Expr parse_index_item();

  const Source& source_;
  Diagnostics& diagnostics_;
  Lexer lexer_;
  std::deque<Token> lookahead_;
  std::vector<Token> comments_;
  Token previous_;
  int nesting_ = 0;
  int height_ = 0;
  int target_count_ = 0;
};

const Token& Parser::peek(std::size_t ahead) {
  while (lookahead_.size() <= ahead) {
    Token token = lexer_.next();
    if (token.kind == TokenKind::comment) {
      comments_.push_back(token);
    } else {
      lookahead_.push_back(token);
    }
  }
  return lookahead_[ahead];
}

Token Parser::advance() {
  peek();
  previous_ = lookahead_.front();
  // The end of the file stays in place: asking past it gives it again.
  if (previous_.kind != TokenKind::end_of_file) lookahead_.pop_front();
  return previous_;
}

Token Parser::expect(TokenKind kind, const std::string& message) {
  if (!at(kind)) fail(peek(), message + got());
  return advance();
}

void Parser::fail(const Token& token, const std::string& message) {
  // The lexer reported the invalid characters and the brackets it repaired already.
  if (!token.synthetic && token.kind != TokenKind::error) diagnostics_.error(token.span, message);
  throw SyntaxError{};
}

Program Parser::parse_program() {
  Program program;
  while (!diagnostics_.stopped()) {
    if (at(TokenKind::end_of_file)) break;
    if (at(TokenKind::newline)) {
      advance();
      continue;
    }
    nesting_ = 0;
    height_ = 0;
    try {
      const std::size_t begin = peek().span.begin;
      Statement statement = parse_statement();
      statement.span = {begin, previous_.span.end};
      if (!at(TokenKind::newline) && !at(TokenKind::end_of_file)) {
        fail(peek(), "expected end of line after the statement" + got());
      }
      program.statements.push_back(std::move(statement));
    } catch (const SyntaxError&) {
      while (!at(TokenKind::newline) && !at(TokenKind::end_of_file)) advance();
    }
  }
  attach_comments(source_, comments_, program);
  return program;
}

Statement Parser::parse_statement() {
  Statement statement;
  if (at(TokenKind::keyword_data)) {
    statement.node = parse_data();
    return statement;
  }
  if (!at(TokenKind::identifier)) {
    fail(peek(), "expected 'data' or a name at the start of a statement" + got());
  }
  const Token name = advance();
  if (name.text == "function" && at(TokenKind::identifier)) {
    statement.node = parse_function();
    return statement;
  }
  if (name.text == "target" && at(TokenKind::plus_equals)) {
    statement.node = parse_target(name);
    return statement;
  }
  if (name.text == "guide" && at(TokenKind::identifier)) {  // `guide z ~ Normal(...)`
    const Token variable = advance();
    if (!at(TokenKind::tilde)) {
      fail(peek(), "expected '~' after 'guide " + std::string(variable.text) +
                       "' (a guide takes its shape from its distribution's arguments)" + got());
    }
    RandomStmt guide = parse_random(variable, {});
    guide.guide = true;
    guide.guide_span = name.span;
    statement.node = std::move(guide);
    return statement;
  }
  const std::string quoted = quote(name.text);
  switch (peek().kind) {
    case TokenKind::left_bracket: {
      std::vector<Expr> dims = parse_dims(quoted);
      if (at(TokenKind::equals) && dims.size() == 1) {
        statement.node = parse_element(name, std::move(dims));
        return statement;
      }
      if (!at(TokenKind::tilde)) fail(peek(), "expected '~' after " + with_dims(name.text, dims) + got());
      statement.node = parse_random(name, std::move(dims));
      return statement;
    }
    case TokenKind::colon:
      statement.node = parse_constrained(name);
      return statement;
    case TokenKind::tilde:
      statement.node = parse_random(name, {});
      return statement;
    case TokenKind::equals: {
      advance();
      Deterministic deterministic;
      deterministic.name = std::string(name.text);
      deterministic.name_span = name.span;
      deterministic.value = parse_expression();
      statement.node = std::move(deterministic);
      return statement;
    }
    default:
      fail(peek(), "expected '~' or '=' after " + quoted + got());
  }
}

// `function NAME(a: real, v: vector): vector = EXPR`, after the word 'function'.
FunctionDecl Parser::parse_function() {
  const Token name = advance();
  FunctionDecl function;
  function.name = std::string(name.text);
  function.name_span = name.span;
  const Token open = expect(TokenKind::left_paren, "expected '(' after 'function " + function.name + "'");
  const Nest nest(*this, open);
  std::unordered_set<std::string_view> names;
  while (!at(TokenKind::right_paren)) {
    const Token parameter = expect(TokenKind::identifier, "expected the name of an argument of " + quote(name.text));
    if (!names.insert(parameter.text).second) {
      diagnostics_.error(parameter.span,
                         "the argument " + quote(parameter.text) + " of " + quote(name.text) + " is named twice");
    }
    expect(TokenKind::colon, "expected ':' and a type after " + quote(parameter.text));
    function.parameters.push_back(
        {std::string(parameter.text), parameter.span, parse_value_type("the argument " + quote(parameter.text))});
    if (at(TokenKind::comma)) {
      advance();
      continue;
    }
    if (!at(TokenKind::right_paren))
      fail(peek(), "expected ',' or ')' in the arguments of " + quote(name.text) + got());
  }
  advance();  // ')'
  expect(TokenKind::colon, "expected ':' and the type of the result of " + quote(name.text));
  function.result_span = peek().span;
  function.result = parse_value_type("the result of " + quote(name.text));
  expect(TokenKind::equals, "expected '=' and the value of " + quote(name.text));
  function.body = parse_expression();
  return function;
}

// real, int, vector or matrix.
ValueType Parser::parse_value_type(const std::string& what) {
  const Token type = advance();
  if (type.kind == TokenKind::keyword_real) return ValueType::real;
  if (type.kind == TokenKind::keyword_int) return ValueType::integer;
  if (type.kind == TokenKind::identifier && type.text == "vector") return ValueType::vector;
  if (type.kind == TokenKind::identifier && type.text == "matrix") return ValueType::matrix;
  fail(type, "expected a type for " + what + " (real, int, vector or matrix), got " + describe(type));
}

DataDecl Parser::parse_data() {
  advance();  // 'data'
  const Token name = expect(TokenKind::identifier, "expected a name after 'data'");
  expect(TokenKind::colon, "expected ':' after " + quote(name.text));
  DataDecl data;
  data.name = std::string(name.text);
  data.name_span = name.span;
  if (at(TokenKind::keyword_real)) {
    data.type = BaseType::real;
  } else if (at(TokenKind::keyword_int)) {
    data.type = BaseType::integer;
  } else {
    fail(peek(), "expected 'real' or 'int' after ':'" + got());
  }
  advance();
  if (at(TokenKind::less)) parse_bounds(quote(data.name), data.lower, data.upper);
  if (at(TokenKind::left_bracket)) data.dims = parse_dims(quote(name.text));
  return data;
}

// `<lower=L>`, `<upper=U>` or `<lower=L, upper=U>`: each bound an expression without
// comparisons (as `lower=1 - a`), so that the closing '>' is not read as one. Returns the '>'.
Token Parser::parse_bounds(const std::string& quoted, std::optional<Expr>& lower, std::optional<Expr>& upper) {
  advance();  // '<'
  while (true) {
    const Token which = expect(TokenKind::identifier, "expected 'lower' or 'upper' in the bounds of " + quoted);
    const std::string kind(which.text);
    std::optional<Expr>* bound = kind == "lower" ? &lower : kind == "upper" ? &upper : nullptr;
    if (!bound) fail(which, "expected 'lower' or 'upper' in the bounds of " + quoted + ", got '" + kind + "'");
    if (bound->has_value()) fail(which, "the " + kind + " bound of " + quoted + " is given twice");
    expect(TokenKind::equals, "expected '=' after '" + kind + "'");
    *bound = parse_additive();  // no comparison: '>' closes the bounds
    if (!at(TokenKind::comma)) break;
    advance();
  }
  return expect(TokenKind::greater, "expected '>' to close the bounds of " + quoted);
}

// `NAME: real<lower=L, upper=U>[DIMS]`, a parameter flat on its bounds.
RandomStmt Parser::parse_bounded(const Token& name) {
  const Token real = advance();  // 'real'
  const std::string quoted = quote(name.text);
  RandomStmt random;
  random.name = std::string(name.text);
  random.name_span = name.span;
  DeclaredBounds bounds;
  bounds.span = real.span;
  if (at(TokenKind::less)) bounds.span.end = parse_bounds(quoted, bounds.lower, bounds.upper).span.end;
  if (at(TokenKind::left_bracket)) random.dims = parse_dims(quoted);
  if (at(TokenKind::tilde)) {
    fail(peek(), "a parameter declared 'real' is flat on its bounds (Stan's `real<lower=L, upper=U>`) and takes no '~'; "
                 "for a prior within bounds write `" + std::string(name.text) + " ~ Dist(...) T[L, U]`");
  }
  random.distribution = Expr::call("Flat", {}, real.span);
  random.bounds = std::move(bounds);
  return random;
}

RandomStmt Parser::parse_random(const Token& name, std::vector<Expr> dims) {
  advance();  // '~'
  RandomStmt random;
  random.name = std::string(name.text);
  random.name_span = name.span;
  random.dims = std::move(dims);
  random.distribution = parse_distribution();
  random.truncation = parse_truncation();
  return random;
}

ElementDefinition Parser::parse_element(const Token& name, std::vector<Expr> dims) {
  advance();  // '='
  ElementDefinition element;
  element.name = std::string(name.text);
  element.name_span = name.span;
  element.index = std::move(dims[0]);
  element.value = parse_expression();
  if (at(TokenKind::identifier) && peek().text == "for") {
    advance();
    const Token variable = expect(TokenKind::identifier, "expected the index's name after 'for'");
    if (!at(TokenKind::identifier) || peek().text != "in") {
      fail(peek(), "expected 'in' after 'for " + std::string(variable.text) + "'" + got());
    }
    advance();
    Expr lo = parse_expression();
    expect(TokenKind::colon, "expected ':' in the range of '" + std::string(variable.text) + "', as in 2:T");
    Expr hi = parse_expression();
    element.loop = ElementDefinition::Loop{std::string(variable.text), variable.span, std::move(lo), std::move(hi)};
  }
  return element;
}

TargetIncrement Parser::parse_target(const Token& target) {
  advance();  // '+='
  TargetIncrement increment;
  increment.name = "target[" + std::to_string(++target_count_) + "]";
  increment.name_span = target.span;
  increment.value = parse_expression();
  return increment;
}

std::optional<Truncation> Parser::parse_truncation() {
  if (!at(TokenKind::identifier) || peek().text != "T" || peek(1).kind != TokenKind::left_bracket) {
    return std::nullopt;
  }
  const Token t = advance();
  const Token open = advance();  // '['
  const Nest nest(*this, open);
  Truncation truncation;
  if (!at(TokenKind::comma)) truncation.lo = parse_expression();
  expect(TokenKind::comma, "expected ',' in the truncation T[lo, hi] (T[lo, ] or T[, hi] for one bound)");
  if (!at(TokenKind::right_bracket)) truncation.hi = parse_expression();
  const Token close = expect(TokenKind::right_bracket, "expected ']' after the truncation's bounds");
  truncation.span = {t.span.begin, close.span.end};
  if (!truncation.lo && !truncation.hi) {
    diagnostics_.error(truncation.span, "a truncation needs a bound: T[lo, hi], T[lo, ] or T[, hi]");
  }
  return truncation;
}

RandomStmt Parser::parse_constrained(const Token& name) {
  advance();  // ':'
  if (at(TokenKind::keyword_real)) return parse_bounded(name);
  const Token type = peek();
  const auto constraint =
      type.kind == TokenKind::identifier ? constraint_from_name(type.text) : std::nullopt;
  if (!constraint) {
    std::string message =
        "expected 'real' (a bounded parameter, as in real<lower=0>) or a constraint (ordered, positive_ordered, "
        "simplex or cholesky_corr) after ':'" + got();
    if (type.kind == TokenKind::keyword_int) {
      message += " (data is declared as 'data " + std::string(name.text) + ": " +
                 std::string(type.text) + "')";
    }
    fail(type, message);
  }
  advance();
  if (!at(TokenKind::left_bracket)) {
    fail(peek(), "expected '[' after " + quote(type.text) + got());
  }
  std::vector<Expr> constraint_dims = parse_dims(quote(type.text));
  if (!at(TokenKind::tilde)) {
    fail(peek(), "expected '~' after " + with_dims(type.text, constraint_dims) + got());
  }
  RandomStmt random = parse_random(name, {});
  random.constraint = *constraint;
  random.constraint_span = type.span;
  random.constraint_dims = std::move(constraint_dims);
  return random;
}

std::vector<Expr> Parser::parse_dims(const std::string& what) {
  const Token open = advance();  // '['
  const Nest nest(*this, open);
  std::vector<Expr> dims;
  while (true) {
    dims.push_back(parse_expression());
    if (at(TokenKind::comma)) {
      advance();
      continue;
    }
    if (at(TokenKind::right_bracket)) break;
    fail(peek(), "expected ',' or ']' in the dimensions of " + what + got());
  }
  advance();  // ']'
  return dims;
}

std::string Parser::with_dims(std::string_view name, const std::vector<Expr>& dims) {
  std::string text(name);
  text += '[';
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i > 0 ? ", " : "") + to_string(dims[i]);
  return quote(text + "]");
}

Expr Parser::parse_distribution() {
  if (!at(TokenKind::identifier)) {
    fail(peek(), "expected a distribution such as 'Normal(0, 1)' after '~'" + got());
  }
  const Token name = advance();
  if (!at(TokenKind::left_paren)) {
    fail(peek(), "expected '(' after the distribution " + quote(name.text) + got());
  }
  return parse_call(name);
}

Expr Parser::parse_expression() {
  Expr condition = parse_binary_level(0);
  if (!at(TokenKind::question)) return condition;
  const Token question = advance();
  const Nest nest(*this, question);
  Expr if_true = parse_expression();
  expect(TokenKind::colon, "expected ':' after the first branch of '?'");
  Expr if_false = parse_expression();
  const Span span{condition.span.begin, if_false.span.end};
  return Expr::conditional(std::move(condition), std::move(if_true), std::move(if_false), span);
}

namespace {

struct OperatorToken {
  TokenKind token;
  BinaryOp op;
};

// The binary operators looser than '+', loosest first (as Stan and C).
const std::vector<std::vector<OperatorToken>>& loose_levels() {
  static const std::vector<std::vector<OperatorToken>> levels = {
      {{TokenKind::or_or, BinaryOp::logical_or}},
      {{TokenKind::and_and, BinaryOp::logical_and}},
      {{TokenKind::equal_equal, BinaryOp::equal}, {TokenKind::not_equal, BinaryOp::not_equal}},
      {{TokenKind::less, BinaryOp::less}, {TokenKind::less_equal, BinaryOp::less_equal},
       {TokenKind::greater, BinaryOp::greater}, {TokenKind::greater_equal, BinaryOp::greater_equal}},
  };
  return levels;
}

}  // namespace

Expr Parser::parse_binary_level(int level) {
  const auto& levels = loose_levels();
  if (level == static_cast<int>(levels.size())) return parse_additive();
  const auto find = [&](TokenKind kind) -> const OperatorToken* {
    for (const auto& entry : levels[level]) {
      if (entry.token == kind) return &entry;
    }
    return nullptr;
  };
  Expr lhs = parse_binary_level(level + 1);
  Chain chain(*this);
  while (const OperatorToken* entry = find(peek().kind)) {
    const Token op = advance();
    chain.add(op);
    Expr rhs = parse_binary_level(level + 1);
    const Span span{lhs.span.begin, rhs.span.end};
    lhs = Expr::binary(entry->op, std::move(lhs), std::move(rhs), span);
  }
  return lhs;
}

Expr Parser::parse_additive() {
  Expr lhs = parse_multiplicative();
  Chain chain(*this);
  while (at(TokenKind::plus) || at(TokenKind::minus)) {
    const Token op = advance();
    chain.add(op);
    Expr rhs = parse_multiplicative();
    const Span span{lhs.span.begin, rhs.span.end};
    lhs = Expr::binary(op.kind == TokenKind::plus ? BinaryOp::add : BinaryOp::subtract,
                       std::move(lhs), std::move(rhs), span);
  }
  return lhs;
}

Expr Parser::parse_multiplicative() {
  Expr lhs = parse_unary();
  Chain chain(*this);
  while (at(TokenKind::star) || at(TokenKind::slash) || at(TokenKind::at)) {
    const Token op = advance();
    chain.add(op);
    Expr rhs = parse_unary();
    const Span span{lhs.span.begin, rhs.span.end};
    const BinaryOp kind = op.kind == TokenKind::star    ? BinaryOp::multiply
                          : op.kind == TokenKind::slash ? BinaryOp::divide
                                                        : BinaryOp::matmul;
    lhs = Expr::binary(kind, std::move(lhs), std::move(rhs), span);
  }
  return lhs;
}

Expr Parser::parse_unary() {
  const Nest nest(*this, peek());
  if (at(TokenKind::minus)) {
    const Token minus = advance();
    Expr operand = parse_unary();
    const Span span{minus.span.begin, operand.span.end};
    return Expr::negate(std::move(operand), span);
  }
  if (at(TokenKind::bang)) {
    const Token bang = advance();
    Expr operand = parse_unary();
    const Span span{bang.span.begin, operand.span.end};
    return Expr::logical_not(std::move(operand), span);
  }
  return parse_power();
}

Expr Parser::parse_power() {
  Expr base = parse_postfix();
  if (!at(TokenKind::caret)) return base;
  advance();
  // The exponent is a unary expression: right-associative, and x ^ -2 reads as expected.
  Expr exponent = parse_unary();
  const Span span{base.span.begin, exponent.span.end};
  return Expr::binary(BinaryOp::power, std::move(base), std::move(exponent), span);
}

Expr Parser::parse_postfix() {
  Expr expr = parse_primary();
  while (true) {
    if (at(TokenKind::left_bracket)) {
      expr = parse_index(std::move(expr));
    } else if (at(TokenKind::dot)) {
      expr = parse_method(std::move(expr));
    } else {
      return expr;
    }
  }
}

// `.log_prob(x)` after a distribution's call: its log density at x (log_cdf, log_ccdf).
Expr Parser::parse_method(Expr distribution) {
  advance();  // '.'
  const Token method = expect(TokenKind::identifier, "expected log_prob, log_cdf or log_ccdf after '.'");
  if (distribution.kind != ExprKind::call) {
    diagnostics_.error(distribution.span,
                       "'." + std::string(method.text) + "' follows a distribution, as in Normal(mu, sigma)." +
                           std::string(method.text) + "(x); got " + quote(source_.text(distribution.span)));
  } else if (!is_density_method(method.text)) {
    diagnostics_.error(method.span, "a distribution has no method " + quote(method.text) +
                                        "; it has log_prob(x), log_cdf(x) and log_ccdf(x)");
  }
  expect(TokenKind::left_paren, "expected '(' after " + quote(method.text));
  const Nest nest(*this, previous_);
  Expr point = parse_expression();
  if (at(TokenKind::comma)) {
    fail(peek(), quote(method.text) + " takes one argument, the point at which the density is evaluated");
  }
  const Token close = expect(TokenKind::right_paren, "expected ')' after the argument of " + quote(method.text));
  const Span span{distribution.span.begin, close.span.end};
  return Expr::density(std::string(method.text), std::move(distribution), std::move(point), span);
}

Expr Parser::parse_primary() {
  const Token& token = peek();
  switch (token.kind) {
    case TokenKind::integer:
    case TokenKind::real: {
      const Token number = advance();
      return Expr::number(number.value, number.kind == TokenKind::integer, number.span);
    }
    case TokenKind::identifier: {
      const Token name = advance();
      if (at(TokenKind::left_paren)) return parse_call(name);
      return Expr::identifier(std::string(name.text), name.span);
    }
    case TokenKind::left_paren: {
      const Token open = advance();
      Expr inner = parse_expression();
      const Token close = expect(TokenKind::right_paren, "expected ')'");
      // Grouping is no node of its own; its span takes in the parentheses.
      inner.span = {open.span.begin, close.span.end};
      return inner;
    }
    case TokenKind::left_bracket:
      return parse_vector();
    default:
      fail(token, "expected an expression after " + describe(previous_) + got());
  }
}

Expr Parser::parse_vector() {
  const Token open = advance();  // '['
  const Nest nest(*this, open);
  std::vector<Expr> items;
  while (true) {
    items.push_back(parse_expression());
    if (at(TokenKind::comma)) {
      advance();
      continue;
    }
    if (at(TokenKind::right_bracket)) break;
    fail(peek(), "expected ',' or ']' in the vector" + got());
  }
  const Token close = advance();
  return Expr::vector(std::move(items), {open.span.begin, close.span.end});
}

Expr Parser::parse_call(const Token& name) {
  advance();  // '('
  const Nest nest(*this, previous_);
  std::vector<Argument> arguments;
  std::unordered_set<std::string_view> names;
  while (!at(TokenKind::right_paren)) {
    Argument argument;
    if (at(TokenKind::identifier) && peek(1).kind == TokenKind::equals) {
      const Token argument_name = advance();
      advance();  // '='
      argument.name = std::string(argument_name.text);
      argument.name_span = argument_name.span;
      if (!names.insert(argument_name.text).second) {
        diagnostics_.error(argument_name.span, "duplicate argument " + quote(argument_name.text) +
                                                   " in the call of " + quote(name.text));
      }
    } else if (!names.empty()) {
      diagnostics_.error(peek().span, "positional argument after a named argument in the call of " +
                                          quote(name.text));
    }
    argument.value = parse_expression();
    arguments.push_back(std::move(argument));
    if (at(TokenKind::comma)) {
      advance();
      if (at(TokenKind::right_paren)) fail(peek(), "expected an argument after ','" + got());
      continue;
    }
    if (!at(TokenKind::right_paren)) {
      fail(peek(), "expected ',' or ')' in the arguments of " + quote(name.text) + got());
    }
  }
  const Token close = advance();
  return Expr::call(std::string(name.text), std::move(arguments),
                    {name.span.begin, close.span.end});
}

Expr Parser::parse_index(Expr base) {
  const Token open = advance();  // '['
  const Nest nest(*this, open);
  std::vector<Expr> items;
  while (true) {
    items.push_back(parse_index_item());
    if (at(TokenKind::comma)) {
      advance();
      continue;
    }
    if (at(TokenKind::right_bracket)) break;
    const std::string what = base.kind == ExprKind::name ? " of " + quote(base.name) : "";
    fail(peek(), "expected ',' or ']' in the index" + what + got());
  }
  const Token close = advance();
  const Span span{base.span.begin, close.span.end};
  return Expr::index(std::move(base), std::move(items), span);
}

Expr Parser::parse_index_item() {
  if (at(TokenKind::colon)) {
    const Token colon = advance();
    return Expr::full_slice(colon.span);
  }
  Expr lo = parse_expression();
  if (!at(TokenKind::colon)) return lo;
  advance();
  Expr hi = parse_expression();
  const Span span{lo.span.begin, hi.span.end};
  return Expr::range(std::move(lo), std::move(hi), span);
}

}  // namespace

ParseResult parse(const Source& source) {
  ParseResult result;
  Parser parser(source, result.diagnostics);
  result.program = parser.parse_program();
  return result;
}

}  // namespace variate::model
