#include "engine/codegen/cpp_expression.h"

#include <climits>

#include "engine/model/model_error.h"
#include "engine/model/printer.h"

namespace variate::codegen {
namespace {

using model::BinaryOp;
using model::Expr;
using model::ExprKind;
using model::ModelError;

constexpr int kPostfix = 100;
constexpr int kUnary = 90;
constexpr int kMultiplicative = 80;
constexpr int kAdditive = 70;

std::string quoted(const Expr& expr) { return "'" + model::to_string(expr) + "'"; }

// An integer tensor as float64: where the language computes in floating point, and where
// a C++ double would otherwise turn it into float32 (the default dtype for numbers).
CppValue as_real(CppValue v) {
  if (v.form != Form::tensor || !v.integer) return v;
  return {operand(v, kPostfix) + ".to(at::kDouble)", Form::tensor, false, v.rank, kPostfix};
}

const char* op_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::add: return " + ";
    case BinaryOp::subtract: return " - ";
    case BinaryOp::multiply: return " * ";
    case BinaryOp::divide: return " / ";
    default: return " ? ";
  }
}

}  // namespace

std::string operand(const CppValue& value, int needed) {
  return value.precedence < needed ? "(" + value.text + ")" : value.text;
}

CppValue ExpressionWriter::write(const Expr& expr) const {
  switch (expr.kind) {
    case ExprKind::number: return number(expr);
    case ExprKind::name: return name(expr);
    case ExprKind::negate: return negate(expr);
    case ExprKind::binary: return binary(expr);
    case ExprKind::call: return call(expr);
    case ExprKind::index: return index(expr);
    case ExprKind::full_slice:
    case ExprKind::range: break;
    case ExprKind::vector:
    case ExprKind::conditional:
    case ExprKind::logical_not:
      throw ModelError(expr.span, "variate export does not write '" + model::to_string(expr) + "' yet");
  }
  throw ModelError(expr.span, "':' is only allowed inside an index, as in X[:, 2]");
}

CppValue ExpressionWriter::number(const Expr& expr) const {
  if (!expr.is_integer) {
    return {model::format_number(expr.value, false), Form::cpp_real, false, 0, kPostfix};
  }
  const auto value = static_cast<int64_t>(expr.value);
  const std::string digits = std::to_string(value);
  return {value > INT_MAX ? "int64_t{" + digits + "}" : digits, Form::cpp_int, true, 0, kPostfix};
}

CppValue ExpressionWriter::name(const Expr& expr) const {
  const auto it = scope_.find(expr.name);
  if (it == scope_.end()) throw ModelError(expr.span, "'" + expr.name + "' has no value here");
  return it->second;
}

CppValue ExpressionWriter::negate(const Expr& expr) const {
  const CppValue v = write(expr.operands[0]);
  // A unary operand keeps its parentheses: "-(-x)", never "--x".
  const std::string text = "-" + operand(v, kUnary + 1);
  const Form form = v.form == Form::variable ? Form::tensor : v.form;
  return {text, form, v.integer, v.rank, kUnary};
}

CppValue ExpressionWriter::binary(const Expr& expr) const {
  CppValue a = write(expr.operands[0]);
  CppValue b = write(expr.operands[1]);
  if (expr.op == BinaryOp::matmul) return matmul(expr, a, b);
  const int64_t rank = std::max(a.rank, b.rank);
  if (expr.op == BinaryOp::power) {
    return {"vt::pow(" + a.text + ", " + b.text + ")", Form::tensor, false, rank, kPostfix};
  }
  const bool numbers = a.is_number() && b.is_number();
  if (expr.op == BinaryOp::divide) {
    if (numbers && a.form == Form::cpp_int && b.form == Form::cpp_int) {
      // The language divides as reals: 1 / 2 is 0.5.
      const Expr& lhs = expr.operands[0];
      a.text = lhs.kind == ExprKind::number ? model::format_number(lhs.value, false)
                                            : "static_cast<double>(" + a.text + ")";
      a.form = Form::cpp_real;
      a.precedence = kPostfix;
    }
    a = as_real(a);
    if (a.is_number()) b = as_real(b);
  } else if (a.form == Form::cpp_real) {
    b = as_real(b);
  } else if (b.form == Form::cpp_real) {
    a = as_real(a);
  }
  const int precedence =
      expr.op == BinaryOp::add || expr.op == BinaryOp::subtract ? kAdditive : kMultiplicative;
  CppValue result;
  result.text = operand(a, precedence) + op_text(expr.op) + operand(b, precedence + 1);
  result.precedence = precedence;
  result.rank = rank;
  result.integer = a.integer && b.integer && expr.op != BinaryOp::divide;
  if (numbers) {
    result.form = result.integer ? Form::cpp_int : Form::cpp_real;
  } else {
    result.form = Form::tensor;
  }
  return result;
}

CppValue ExpressionWriter::matmul(const Expr& expr, const CppValue& a, const CppValue& b) const {
  if (a.rank < 1 || a.rank > 2 || b.rank < 1 || b.rank > 2) {
    throw ModelError(expr.span, "'@' multiplies matrices and vectors, got ranks " +
                                    std::to_string(a.rank) + " and " + std::to_string(b.rank) +
                                    " in " + quoted(expr));
  }
  const CppValue x = as_real(a);
  const CppValue y = as_real(b);
  if (a.rank == 1 && b.rank == 1) {  // the language's vector @ vector is sum(a * b)
    return {"vt::dot(" + x.text + ", " + y.text + ")", Form::tensor, false, 0, kPostfix};
  }
  const int64_t rank = a.rank + b.rank - 2;
  return {"vt::matmul(" + x.text + ", " + y.text + ")", Form::tensor, false, rank, kPostfix};
}

CppValue ExpressionWriter::call(const Expr& expr) const {
  const std::string& f = expr.name;
  std::vector<CppValue> args;
  for (const auto& argument : expr.arguments) {
    if (argument.is_named()) {
      throw ModelError(argument.name_span, f + ": functions take no named arguments");
    }
    args.push_back(write(argument.value));
  }
  const auto expect = [&](size_t count) {
    if (args.size() != count) {
      throw ModelError(expr.span, f + " takes " + std::to_string(count) + " argument" +
                                      (count == 1 ? "" : "s") + ", got " +
                                      std::to_string(args.size()));
    }
  };
  const auto joined = [&] {
    std::string text;
    for (size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + args[i].text;
    return text;
  };
  CppValue result{"", Form::tensor, false, 0, kPostfix};
  if (f == "eye") {
    expect(1);
    result.text = "vt::eye(" + size(expr.arguments[0].value) + ")";
    result.rank = 2;
    return result;
  }
  if (f == "lags") {
    expect(2);
    result.text = "vt::lags(" + args[0].text + ", " + size(expr.arguments[1].value) + ")";
    result.rank = 2;
    result.integer = args[0].integer;
    return result;
  }
  if (f == "sum" || f == "mean" || f == "dot" || f == "colmeans" || f == "cholesky" ||
      f == "gp_exp_quad_cov") {
    expect(f == "dot" ? 2 : f == "gp_exp_quad_cov" ? 3 : 1);
    if (f == "colmeans") result.rank = 1;
    if (f == "cholesky" || f == "gp_exp_quad_cov") result.rank = 2;
  } else {
    expect(1);  // elementwise
    result.rank = args[0].rank;
  }
  result.text = "vt::" + f + "(" + joined() + ")";
  return result;
}

std::string ExpressionWriter::size(const Expr& expr) const {
  const CppValue v = write(expr);
  if (v.form == Form::cpp_int) return v.text;
  if (v.form == Form::tensor && v.integer && v.rank == 0) {
    return operand(v, kPostfix) + ".item<int64_t>()";
  }
  throw ModelError(expr.span, quoted(expr) + " must be an integer known from the data");
}

std::string ExpressionWriter::zero_based(const Expr& expr) const {
  if (expr.kind == ExprKind::number && expr.is_integer) {
    return std::to_string(static_cast<int64_t>(expr.value) - 1);
  }
  // "K + 1" -> "K"; "t + 2" -> "t + 1".
  if (expr.kind == ExprKind::binary && expr.op == BinaryOp::add &&
      expr.operands[1].kind == ExprKind::number && expr.operands[1].is_integer) {
    const CppValue base = write(expr.operands[0]);
    if (base.form == Form::cpp_int) {
      const auto offset = static_cast<int64_t>(expr.operands[1].value) - 1;
      return offset == 0 ? base.text : operand(base, kAdditive) + " + " + std::to_string(offset);
    }
  }
  return size(expr) + " - 1";
}

CppValue ExpressionWriter::index(const Expr& expr) const {
  const CppValue base = write(expr.operands[0]);
  const size_t items = expr.operands.size() - 1;
  if (base.is_number() || static_cast<int64_t>(items) > base.rank) {
    throw ModelError(expr.span, quoted(expr.operands[0]) + " has " + std::to_string(base.rank) +
                                    " dimension(s) but is indexed with " + std::to_string(items));
  }
  std::string text = operand(base, kPostfix);
  if (base.form == Form::variable) text += ".value()";
  int64_t rank = base.rank;
  int64_t dim = 0;  // the tensor dimension the next item applies to
  for (size_t i = 1; i < expr.operands.size(); ++i) {
    const Expr& item = expr.operands[i];
    const std::string d = std::to_string(dim);
    if (item.kind == ExprKind::full_slice) {
      ++dim;
      continue;
    }
    if (item.kind == ExprKind::range) {
      text += ".slice(" + d + ", " + zero_based(item.operands[0]) + ", " +
              size(item.operands[1]) + ")";
      ++dim;
      continue;
    }
    const CppValue v = write(item);
    if (!v.integer || v.form == Form::cpp_real) {
      throw ModelError(item.span, "indices must be integers from the data, but " + quoted(item) +
                                      " is real-valued");
    }
    if (v.rank == 0) {
      const std::string position = zero_based(item);
      text += dim == 0 ? "[" + position + "]" : ".select(" + d + ", " + position + ")";
      --rank;
      continue;
    }
    const std::string positions = operand(v, kAdditive) + " - 1";
    if (v.rank == 1) {
      text += ".index_select(" + d + ", " + positions + ")";
    } else {
      text += ".index_select(" + d + ", (" + positions + ").reshape(-1)).unflatten(" + d + ", " +
              operand(v, kPostfix) + ".sizes())";
    }
    rank += v.rank - 1;
    dim += v.rank;
  }
  return {text, Form::tensor, base.integer, rank, kPostfix};
}

std::string ExpressionWriter::tensor_text(const CppValue& value) {
  if (!value.is_number()) return value.text;
  return "at::scalar_tensor(" + value.text + ", at::kDouble)";
}

}  // namespace variate::codegen
