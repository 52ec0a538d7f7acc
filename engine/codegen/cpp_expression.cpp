#include "engine/codegen/cpp_expression.h"

#include <climits>

#include "engine/model/distribution_table.h"
#include "engine/model/model_error.h"
#include "engine/model/ode_call.h"
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
    case ExprKind::call:
      if (model::is_ode_call(expr)) {
        throw ModelError(expr.span, "'" + expr.name +
                                        "': exported programs have no ODE solvers yet; sample the "
                                        "model with `variate sample`");
      }
      return expr.operands.empty() ? call(expr) : write(expr.operands[0]);  // a user function, inlined
    case ExprKind::index: return index(expr);
    case ExprKind::full_slice:
    case ExprKind::range: break;
    case ExprKind::vector:
      return vector(expr);
    case ExprKind::conditional:
      return conditional(expr);
    case ExprKind::logical_not:
      return logical_not(expr);
    case ExprKind::density:
      return density(expr);
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
  if (expr.op >= BinaryOp::equal) return compare(expr, a, b);
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

// Comparisons and logic give 1 or 0 as reals: a C++ bool as a double for two numbers, else
// the tensor comparison as float64, as the language computes it.
CppValue ExpressionWriter::compare(const Expr& expr, const CppValue& a, const CppValue& b) const {
  const bool logic = expr.op == BinaryOp::logical_and || expr.op == BinaryOp::logical_or;
  const std::string op = std::string(" ") + model::binary_op_text(expr.op) + " ";
  if (a.is_number() && b.is_number()) {
    const std::string test = logic ? "(" + a.text + " != 0)" + op + "(" + b.text + " != 0)"
                                   : operand(a, kAdditive) + op + operand(b, kAdditive);
    return {"static_cast<double>(" + test + ")", Form::cpp_real, false, 0, kPostfix};
  }
  const auto side = [](const CppValue& v) {
    const bool rewritten = v.is_number() || v.form == Form::variable;
    return operand({typed_tensor_text(v), Form::tensor, v.integer, v.rank, rewritten ? kPostfix : v.precedence},
                   kAdditive);
  };
  const std::string x = side(a), y = side(b);
  const std::string test =
      logic ? "(" + x + " != 0)" + (expr.op == BinaryOp::logical_and ? " & " : " | ") + "(" + y + " != 0)" : x + op + y;
  return {"(" + test + ").to(at::kDouble)", Form::tensor, false, std::max(a.rank, b.rank), kPostfix};
}

CppValue ExpressionWriter::logical_not(const Expr& expr) const {
  const CppValue v = write(expr.operands[0]);
  if (v.is_number())
    return {"static_cast<double>(" + operand(v, kAdditive) + " == 0)", Form::cpp_real, false, 0, kPostfix};
  const std::string x = v.form == Form::variable ? typed_tensor_text(v) : operand(v, kAdditive);
  return {"(" + x + " == 0).to(at::kDouble)", Form::tensor, false, v.rank, kPostfix};
}

CppValue ExpressionWriter::vector(const Expr& expr) const {
  std::string text = "vt::vector_of({";
  bool integer = true;
  int64_t rank = 0;
  for (size_t i = 0; i < expr.operands.size(); ++i) {
    const CppValue item = write(expr.operands[i]);
    text += (i ? ", " : "") + typed_tensor_text(item);
    integer = integer && item.integer;
    rank = item.rank;
  }
  return {text + "})", Form::tensor, integer, rank + 1, kPostfix};
}

CppValue ExpressionWriter::conditional(const Expr& expr) const {
  const CppValue c = write(expr.operands[0]), a = write(expr.operands[1]), b = write(expr.operands[2]);
  const bool integer = a.integer && b.integer;
  if (c.is_number() && a.is_number() && b.is_number()) {
    return {"(" + operand(c, kAdditive) + " != 0 ? " + operand(a, kAdditive) + " : " + operand(b, kAdditive) + ")",
            integer ? Form::cpp_int : Form::cpp_real, integer, 0, kPostfix};
  }
  return {"vt::where(" + typed_tensor_text(c) + ", " + typed_tensor_text(a) + ", " + typed_tensor_text(b) + ")",
          Form::tensor, integer, std::max({c.rank, a.rank, b.rank}), kPostfix};
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
  if (f == "sum" || f == "mean" || f == "dot" || f == "colmeans" || f == "cholesky" || f == "gp_exp_quad_cov" ||
      f == "log_sum_exp" || f == "log_sum_exp_rows" || f == "transpose") {
    expect(f == "dot" ? 2 : f == "gp_exp_quad_cov" ? 3 : 1);
    if (f == "colmeans" || f == "log_sum_exp_rows") result.rank = 1;
    if (f == "cholesky" || f == "gp_exp_quad_cov" || f == "transpose") result.rank = 2;
    if (f == "transpose") {  // of a tensor, keeping an integer matrix integer
      result.integer = args[0].integer;
      result.text = "vt::transpose(" + typed_tensor_text(args[0]) + ")";
      return result;
    }
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
  // "K + 1" -> "K"; "t + 2" -> "t + 1"; "t - 1" -> "t - 2".
  if (expr.kind == ExprKind::binary && (expr.op == BinaryOp::add || expr.op == BinaryOp::subtract) &&
      expr.operands[1].kind == ExprKind::number && expr.operands[1].is_integer) {
    const CppValue base = write(expr.operands[0]);
    if (base.form == Form::cpp_int) {
      const auto literal = static_cast<int64_t>(expr.operands[1].value);
      const int64_t offset = (expr.op == BinaryOp::add ? literal : -literal) - 1;
      if (offset == 0) return base.text;
      return operand(base, kAdditive) + (offset > 0 ? " + " : " - ") + std::to_string(offset > 0 ? offset : -offset);
    }
  }
  return size(expr) + " - 1";
}

CppValue ExpressionWriter::index(const Expr& expr) const {
  const CppValue base = write(expr.operands[0]);
  const size_t items = expr.operands.size() - 1;
  const int64_t indexable = base.form == Form::elements ? base.rank + 1 : base.rank;
  if (base.is_number() || static_cast<int64_t>(items) > indexable) {
    throw ModelError(expr.span, quoted(expr.operands[0]) + " has " + std::to_string(base.rank) +
                                    " dimension(s) but is indexed with " + std::to_string(items));
  }
  std::string text = operand(base, kPostfix);
  if (base.form == Form::variable) text += ".value()";
  int64_t rank = base.rank;
  int64_t dim = 0;  // the tensor dimension the next item applies to
  size_t first = 1;
  if (base.form == Form::elements) {  // an earlier element of the recurrence being defined
    text += "[" + zero_based(expr.operands[1]) + "]";
    first = 2;
  }
  for (size_t i = first; i < expr.operands.size(); ++i) {
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

// `Normal(mu, sigma).log_prob(x)` as the engine's family, built where it is evaluated:
// `vt::distributions::Normal(mu, sigma).log_prob(x)`.
CppValue ExpressionWriter::density(const Expr& expr) const {
  const Expr& call = expr.operands[0];
  const model::DistributionSignature& signature = *model::find_distribution(call.name);
  const auto bound = model::bind_arguments(signature, call);
  if (!bound) throw ModelError(call.span, "no parameterization of " + call.name + " fits");
  const auto& parameters = signature.parameterizations[bound->parameterization];
  const CppValue x = as_real(write(expr.operands[1]));
  int64_t rank = x.rank - signature.event_rank;
  std::string text = "vt::distributions::" + call.name + "(";
  for (size_t p = 0; p < parameters.size(); ++p) {
    const Expr& argument = call.arguments[bound->argument_of_parameter[p]].value;
    if (parameters[p].is_distribution) throw ModelError(call.span, "a Mixture's " + expr.name + " cannot be exported");
    const CppValue v = as_real(write(argument));
    text += (p ? ", " : "") + tagged_argument(parameters[p].name, tensor_text(v));
    rank = std::max(rank, v.rank - parameters[p].event_rank);
  }
  text += ")." + expr.name + "(" + typed_tensor_text(x) + ")";
  return {text, Form::tensor, false, std::max<int64_t>(rank, 0), kPostfix};
}

std::string tagged_argument(const std::string& parameter, const std::string& text) {
  if (parameter == "logits" || parameter == "log_rate" || parameter == "scale_tril") {
    return "vt::" + parameter + "(" + text + ")";
  }
  return text;
}

std::string ExpressionWriter::tensor_text(const CppValue& value) {
  if (!value.is_number()) return value.text;
  return "at::scalar_tensor(" + value.text + ", at::kDouble)";
}

std::string ExpressionWriter::typed_tensor_text(const CppValue& value) {
  if (value.form == Form::cpp_int) return "at::scalar_tensor(" + value.text + ", at::kLong)";
  if (value.form == Form::variable) return operand(value, kPostfix) + ".value()";
  return tensor_text(value);
}

}  // namespace variate::codegen
