#include "engine/model/printer.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace variate::model {
namespace {

// Binding strength, loosest first, as the parser reads them.
enum Precedence : int {
  kSlice = 0,
  kConditional = 1,
  kOr = 2,
  kAnd = 3,
  kEquality = 4,
  kComparison = 5,
  kAdditive = 6,
  kMultiplicative = 7,
  kUnary = 8,
  kPower = 9,
  kPostfix = 10,
};

int precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::full_slice:
    case ExprKind::range: return kSlice;
    case ExprKind::negate:
    case ExprKind::logical_not: return kUnary;
    case ExprKind::conditional: return kConditional;
    case ExprKind::number: return e.value < 0 || std::signbit(e.value) ? kUnary : kPostfix;
    case ExprKind::binary:
      switch (e.op) {
        case BinaryOp::add:
        case BinaryOp::subtract: return kAdditive;
        case BinaryOp::power: return kPower;
        case BinaryOp::logical_or: return kOr;
        case BinaryOp::logical_and: return kAnd;
        case BinaryOp::equal:
        case BinaryOp::not_equal: return kEquality;
        case BinaryOp::less:
        case BinaryOp::less_equal:
        case BinaryOp::greater:
        case BinaryOp::greater_equal: return kComparison;
        default: return kMultiplicative;
      }
    default: return kPostfix;
  }
}

void print(const Expr& e, std::string& out);

void print_operand(const Expr& e, bool parenthesize, std::string& out) {
  if (parenthesize) out += '(';
  print(e, out);
  if (parenthesize) out += ')';
}

void print_list(const std::vector<Expr>& items, std::size_t first, std::string& out) {
  for (std::size_t i = first; i < items.size(); ++i) {
    if (i > first) out += ", ";
    print(items[i], out);
  }
}

void print(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::number:
      out += format_number(e.value, e.is_integer);
      return;
    case ExprKind::name:
      out += e.name;
      return;
    case ExprKind::negate:
      out += '-';
      print_operand(e.operands[0], precedence(e.operands[0]) < kUnary, out);
      return;
    case ExprKind::binary: {
      const int p = precedence(e);
      const Expr& lhs = e.operands[0];
      const Expr& rhs = e.operands[1];
      // '^' is right-associative and takes a unary operand on its right (x ^ -2); the
      // others are left-associative.
      const bool left_parens = e.op == BinaryOp::power ? precedence(lhs) <= p : precedence(lhs) < p;
      const bool right_parens =
          e.op == BinaryOp::power ? precedence(rhs) < kUnary : precedence(rhs) <= p;
      print_operand(lhs, left_parens, out);
      out += ' ';
      out += binary_op_text(e.op);
      out += ' ';
      print_operand(rhs, right_parens, out);
      return;
    }
    case ExprKind::call:
      out += e.name;
      out += '(';
      for (std::size_t i = 0; i < e.arguments.size(); ++i) {
        if (i > 0) out += ", ";
        if (e.arguments[i].is_named()) out += e.arguments[i].name + " = ";
        print(e.arguments[i].value, out);
      }
      out += ')';
      return;
    case ExprKind::index:
      print_operand(e.operands[0], precedence(e.operands[0]) < kPostfix, out);
      out += '[';
      print_list(e.operands, 1, out);
      out += ']';
      return;
    case ExprKind::full_slice:
      out += ':';
      return;
    case ExprKind::logical_not:
      out += '!';
      print_operand(e.operands[0], precedence(e.operands[0]) < kUnary, out);
      return;
    case ExprKind::vector:
      out += '[';
      print_list(e.operands, 0, out);
      out += ']';
      return;
    case ExprKind::conditional:
      // Right-associative: only a conditional condition needs parentheses.
      print_operand(e.operands[0], precedence(e.operands[0]) <= kConditional, out);
      out += " ? ";
      print(e.operands[1], out);
      out += " : ";
      print(e.operands[2], out);
      return;
    case ExprKind::range:
      print_operand(e.operands[0], precedence(e.operands[0]) < kPostfix, out);
      out += ':';
      print_operand(e.operands[1], precedence(e.operands[1]) < kPostfix, out);
      return;
    case ExprKind::density:
      print(e.operands[0], out);
      out += '.';
      out += e.name;
      out += '(';
      print(e.operands[1], out);
      out += ')';
      return;
  }
}

std::string bracketed(const std::vector<Expr>& dims) {
  if (dims.empty()) return "";
  std::string out = "[";
  print_list(dims, 0, out);
  return out + "]";
}

}  // namespace

std::string to_string(const Expr& expr) {
  std::string out;
  print(expr, out);
  return out;
}

// `<lower=L, upper=U>`, or "" without bounds. A bound is read without comparisons (so that
// '>' closes the bounds): a comparison, logic or `?:` is parenthesized.
static std::string bounds_text(const std::optional<Expr>& lower, const std::optional<Expr>& upper) {
  const auto bound = [](const Expr& e) {
    const bool loose = (e.kind == ExprKind::binary && e.op >= BinaryOp::equal) || e.kind == ExprKind::conditional;
    return loose ? "(" + to_string(e) + ")" : to_string(e);
  };
  std::string bounds;
  if (lower) bounds += "lower=" + bound(*lower);
  if (upper) bounds += (bounds.empty() ? "" : ", ") + std::string("upper=") + bound(*upper);
  return bounds.empty() ? bounds : "<" + bounds + ">";
}

std::string to_string(const Statement& statement) {
  if (const auto* data = statement.as<DataDecl>()) {
    return "data " + data->name + ": " + base_type_name(data->type) + bounds_text(data->lower, data->upper) +
           bracketed(data->dims);
  }
  if (const auto* random = statement.as<RandomStmt>(); random && random->bounds) {
    return random->name + ": real" + bounds_text(random->bounds->lower, random->bounds->upper) + bracketed(random->dims);
  }
  if (const auto* random = statement.as<RandomStmt>()) {
    std::string out = (random->guide ? "guide " : "") + random->name + bracketed(random->dims);
    if (random->constraint != Constraint::none) {
      out += std::string(": ") + constraint_name(random->constraint) +
             bracketed(random->constraint_dims);
    }
    out += " ~ " + to_string(random->distribution);
    if (random->truncation) {
      out += " T[";
      if (random->truncation->lo) out += to_string(*random->truncation->lo);
      out += random->truncation->hi ? ", " + to_string(*random->truncation->hi) : ", ";
      out += "]";
    }
    return out;
  }
  if (const auto* element = statement.as<ElementDefinition>()) {
    std::string out = element->name + "[" + to_string(element->index) + "] = " + to_string(element->value);
    if (element->loop) {
      const auto bound = [](const Expr& e) {
        std::string text;
        print_operand(e, precedence(e) < kPostfix, text);
        return text;
      };
      out += " for " + element->loop->variable + " in " + bound(element->loop->lo) + ":" + bound(element->loop->hi);
    }
    return out;
  }
  if (const auto* target = statement.as<TargetIncrement>()) return "target += " + to_string(target->value);
  if (const auto* function = statement.as<FunctionDecl>()) {
    std::string out = "function " + function->name + "(";
    for (size_t i = 0; i < function->parameters.size(); ++i) {
      const FunctionParameter& p = function->parameters[i];
      out += (i ? ", " : "") + p.name + ": " + value_type_name(p.type);
    }
    return out + "): " + value_type_name(function->result) + " = " + to_string(function->body);
  }
  const auto& deterministic = std::get<Deterministic>(statement.node);
  return deterministic.name + " = " + to_string(deterministic.value);
}

std::string to_string(const Program& program) {
  std::string out;
  for (const Statement& statement : program.statements) {
    if (statement.blank_line_before) out += '\n';
    for (const Comment& comment : statement.comments_before) out += "#" + comment.text + "\n";
    out += to_string(statement);
    if (statement.comment_after) out += "  #" + statement.comment_after->text;
    out += '\n';
  }
  for (const Comment& comment : program.trailing_comments) out += "#" + comment.text + "\n";
  return out;
}

}  // namespace variate::model
