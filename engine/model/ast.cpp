#include "engine/model/ast.h"

namespace variate::model {

const char* binary_op_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::add: return "+";
    case BinaryOp::subtract: return "-";
    case BinaryOp::multiply: return "*";
    case BinaryOp::divide: return "/";
    case BinaryOp::matmul: return "@";
    case BinaryOp::power: return "^";
    case BinaryOp::equal: return "==";
    case BinaryOp::not_equal: return "!=";
    case BinaryOp::less: return "<";
    case BinaryOp::less_equal: return "<=";
    case BinaryOp::greater: return ">";
    case BinaryOp::greater_equal: return ">=";
    case BinaryOp::logical_and: return "&&";
    case BinaryOp::logical_or: return "||";
  }
  return "?";
}

Expr Expr::number(double value, bool is_integer, Span span) {
  Expr e;
  e.kind = ExprKind::number;
  e.value = value;
  e.is_integer = is_integer;
  e.span = span;
  return e;
}

Expr Expr::identifier(std::string name, Span span) {
  Expr e;
  e.kind = ExprKind::name;
  e.name = std::move(name);
  e.span = span;
  return e;
}

Expr Expr::negate(Expr operand, Span span) {
  Expr e;
  e.kind = ExprKind::negate;
  e.operands.push_back(std::move(operand));
  e.span = span;
  return e;
}

Expr Expr::binary(BinaryOp op, Expr lhs, Expr rhs, Span span) {
  Expr e;
  e.kind = ExprKind::binary;
  e.op = op;
  e.operands.reserve(2);
  e.operands.push_back(std::move(lhs));
  e.operands.push_back(std::move(rhs));
  e.span = span;
  return e;
}

Expr Expr::call(std::string function, std::vector<Argument> arguments, Span span) {
  Expr e;
  e.kind = ExprKind::call;
  e.name = std::move(function);
  e.arguments = std::move(arguments);
  e.span = span;
  return e;
}

Expr Expr::index(Expr base, std::vector<Expr> items, Span span) {
  Expr e;
  e.kind = ExprKind::index;
  e.operands.reserve(items.size() + 1);
  e.operands.push_back(std::move(base));
  for (Expr& item : items) e.operands.push_back(std::move(item));
  e.span = span;
  return e;
}

Expr Expr::full_slice(Span span) {
  Expr e;
  e.kind = ExprKind::full_slice;
  e.span = span;
  return e;
}

Expr Expr::range(Expr lo, Expr hi, Span span) {
  Expr e;
  e.kind = ExprKind::range;
  e.operands.reserve(2);
  e.operands.push_back(std::move(lo));
  e.operands.push_back(std::move(hi));
  e.span = span;
  return e;
}

Expr Expr::vector(std::vector<Expr> items, Span span) {
  Expr e;
  e.kind = ExprKind::vector;
  e.operands = std::move(items);
  e.span = span;
  return e;
}

Expr Expr::conditional(Expr condition, Expr if_true, Expr if_false, Span span) {
  Expr e;
  e.kind = ExprKind::conditional;
  e.operands.reserve(3);
  e.operands.push_back(std::move(condition));
  e.operands.push_back(std::move(if_true));
  e.operands.push_back(std::move(if_false));
  e.span = span;
  return e;
}

Expr Expr::logical_not(Expr operand, Span span) {
  Expr e;
  e.kind = ExprKind::logical_not;
  e.operands.push_back(std::move(operand));
  e.span = span;
  return e;
}

Expr Expr::density(std::string method, Expr distribution, Expr point, Span span) {
  Expr e;
  e.kind = ExprKind::density;
  e.name = std::move(method);
  e.operands.reserve(2);
  e.operands.push_back(std::move(distribution));
  e.operands.push_back(std::move(point));
  e.span = span;
  return e;
}

bool is_density_method(std::string_view name) { return name == "log_prob" || name == "log_cdf" || name == "log_ccdf"; }

const char* value_type_name(ValueType type) {
  switch (type) {
    case ValueType::real:
      return "real";
    case ValueType::integer:
      return "int";
    case ValueType::vector:
      return "vector";
    case ValueType::matrix:
      return "matrix";
  }
  return "";
}

int64_t value_type_rank(ValueType type) { return type == ValueType::vector ? 1 : type == ValueType::matrix ? 2 : 0; }

const char* base_type_name(BaseType type) { return type == BaseType::real ? "real" : "int"; }

const char* constraint_name(Constraint constraint) {
  switch (constraint) {
    case Constraint::none: return "";
    case Constraint::ordered: return "ordered";
    case Constraint::positive_ordered: return "positive_ordered";
    case Constraint::simplex: return "simplex";
    case Constraint::cholesky_corr: return "cholesky_corr";
  }
  return "";
}

std::optional<Constraint> constraint_from_name(std::string_view name) {
  for (Constraint c : {Constraint::ordered, Constraint::positive_ordered, Constraint::simplex,
                       Constraint::cholesky_corr}) {
    if (name == constraint_name(c)) return c;
  }
  return std::nullopt;
}

const std::string& Statement::name() const {
  return std::visit([](const auto& s) -> const std::string& { return s.name; }, node);
}

Span Statement::name_span() const {
  return std::visit([](const auto& s) { return s.name_span; }, node);
}

namespace {

bool all_equal(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!structurally_equal(a[i], b[i])) return false;
  }
  return true;
}

bool equal_comments(const std::vector<Comment>& a, const std::vector<Comment>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].text != b[i].text) return false;
  }
  return true;
}

bool equal_bounds(const std::optional<Expr>& a, const std::optional<Expr>& b) {
  return a.has_value() == b.has_value() && (!a || structurally_equal(*a, *b));
}

bool equal_nodes(const DataDecl& a, const DataDecl& b) {
  return a.name == b.name && a.type == b.type && equal_bounds(a.lower, b.lower) && equal_bounds(a.upper, b.upper) &&
         all_equal(a.dims, b.dims);
}

bool equal_truncations(const std::optional<Truncation>& a, const std::optional<Truncation>& b) {
  return a.has_value() == b.has_value() && (!a || (equal_bounds(a->lo, b->lo) && equal_bounds(a->hi, b->hi)));
}

bool equal_nodes(const RandomStmt& a, const RandomStmt& b) {
  return a.name == b.name && a.guide == b.guide && all_equal(a.dims, b.dims) && a.constraint == b.constraint &&
         all_equal(a.constraint_dims, b.constraint_dims) &&
         structurally_equal(a.distribution, b.distribution) && equal_truncations(a.truncation, b.truncation) &&
         a.bounds.has_value() == b.bounds.has_value() &&
         (!a.bounds || (equal_bounds(a.bounds->lower, b.bounds->lower) && equal_bounds(a.bounds->upper, b.bounds->upper)));
}

bool equal_nodes(const ElementDefinition& a, const ElementDefinition& b) {
  if (a.name != b.name || !structurally_equal(a.index, b.index) || !structurally_equal(a.value, b.value) ||
      a.loop.has_value() != b.loop.has_value()) {
    return false;
  }
  return !a.loop || (a.loop->variable == b.loop->variable && structurally_equal(a.loop->lo, b.loop->lo) &&
                     structurally_equal(a.loop->hi, b.loop->hi));
}

bool equal_nodes(const TargetIncrement& a, const TargetIncrement& b) {
  return a.name == b.name && structurally_equal(a.value, b.value);
}

bool equal_nodes(const FunctionDecl& a, const FunctionDecl& b) {
  if (a.name != b.name || a.result != b.result || a.parameters.size() != b.parameters.size() ||
      !structurally_equal(a.body, b.body)) {
    return false;
  }
  for (std::size_t i = 0; i < a.parameters.size(); ++i) {
    if (a.parameters[i].name != b.parameters[i].name || a.parameters[i].type != b.parameters[i].type) return false;
  }
  return true;
}

bool equal_nodes(const Deterministic& a, const Deterministic& b) {
  return a.name == b.name && structurally_equal(a.value, b.value);
}

}  // namespace

bool structurally_equal(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.name != b.name || !all_equal(a.operands, b.operands) ||
      a.arguments.size() != b.arguments.size()) {
    return false;
  }
  if (a.kind == ExprKind::number && (a.value != b.value || a.is_integer != b.is_integer)) {
    return false;
  }
  if (a.kind == ExprKind::binary && a.op != b.op) return false;
  for (std::size_t i = 0; i < a.arguments.size(); ++i) {
    if (a.arguments[i].name != b.arguments[i].name ||
        !structurally_equal(a.arguments[i].value, b.arguments[i].value)) {
      return false;
    }
  }
  return true;
}

bool structurally_equal(const Statement& a, const Statement& b) {
  if (a.node.index() != b.node.index() || a.blank_line_before != b.blank_line_before ||
      !equal_comments(a.comments_before, b.comments_before) ||
      a.comment_after.has_value() != b.comment_after.has_value() ||
      (a.comment_after && a.comment_after->text != b.comment_after->text)) {
    return false;
  }
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        return equal_nodes(x, std::get<T>(b.node));
      },
      a.node);
}

bool structurally_equal(const Program& a, const Program& b) {
  if (a.statements.size() != b.statements.size() ||
      !equal_comments(a.trailing_comments, b.trailing_comments)) {
    return false;
  }
  for (std::size_t i = 0; i < a.statements.size(); ++i) {
    if (!structurally_equal(a.statements[i], b.statements[i])) return false;
  }
  return true;
}

}  // namespace variate::model
