#include "engine/model/data_binding.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/data_inputs.h"
#include "engine/model/finite_data.h"
#include "engine/model/model_error.h"
#include "engine/model/printer.h"

namespace variate::model {
namespace {

struct Declaration {
  const DataDecl* decl;
  Span span;
};

std::string describe_dims(const DataDecl& decl) {
  std::string text;
  for (size_t i = 0; i < decl.dims.size(); ++i) text += (i ? ", " : "") + to_string(decl.dims[i]);
  return text;
}

// Sizes of a declaration, evaluated from data bound so far.
Shape evaluate_dims(const DataDecl& decl, Evaluator& evaluator) {
  Shape shape;
  for (const auto& dim : decl.dims) {
    const Value v = evaluator.evaluate(dim);
    if (!v.integer || v.rank() != 0) {
      throw ModelError(dim.span, "the size '" + to_string(dim) + "' of '" + decl.name +
                                     "' must be an integer");
    }
    const int64_t size = v.tensor.item<int64_t>();
    if (size < 0) {
      throw ModelError(dim.span, "the size '" + to_string(dim) + "' of '" + decl.name +
                                     "' is negative (" + std::to_string(size) + ")");
    }
    shape.push_back(size);
  }
  return shape;
}

// A missing integer size may be implied by the length of another input declared with it
// (so a CSV file need not repeat N).
std::optional<int64_t> infer_size(const std::string& name, const std::vector<Declaration>& all,
                                  const Data& data) {
  for (const auto& other : all) {
    if (!data.contains(other.decl->name)) continue;
    const at::Tensor& value = data[other.decl->name];
    for (size_t d = 0; d < other.decl->dims.size(); ++d) {
      const Expr& dim = other.decl->dims[d];
      if (dim.kind == ExprKind::name && dim.name == name &&
          static_cast<int64_t>(d) < value.dim()) {
        return value.size(static_cast<int64_t>(d));
      }
    }
  }
  return std::nullopt;
}

at::Tensor typed(const DataDecl& decl, const at::Tensor& value, Span span, at::ScalarType real_dtype) {
  if (decl.type == BaseType::real) return value.to(real_dtype);
  if (at::isFloatingType(value.scalar_type())) {
    const at::Tensor fractional = value != at::floor(value);
    if (fractional.any().item<bool>()) {
      const double bad = value.reshape(-1)[fractional.reshape(-1).nonzero()[0][0]].item<double>();
      throw ModelError(span, "data '" + decl.name + "' is declared int but holds the real value " +
                                 format_number(bad, false));
    }
    // Converting a real outside [-2^63, 2^63) to int64 is undefined (it gave INT64_MIN).
    const at::Tensor outside = (value >= 0x1p63) | (value < -0x1p63);
    if (outside.any().item<bool>()) {
      const double bad = value.reshape(-1)[outside.reshape(-1).nonzero()[0][0]].item<double>();
      throw ModelError(span, "data '" + decl.name + "' is declared int but holds " + format_number(bad, false) +
                                 ", outside the range of a 64-bit integer");
    }
  }
  return value.to(at::kLong);
}

// `<lower=L, upper=U>`: every element within its bounds (NaN is within none), as Stan
// checks constrained data. A bound is a scalar or has the data's shape.
void check_bounds(const DataDecl& decl, const at::Tensor& value, Evaluator& evaluator) {
  for (const bool is_lower : {true, false}) {
    const std::optional<Expr>& bound = is_lower ? decl.lower : decl.upper;
    if (!bound) continue;
    const Value limit = evaluator.evaluate(*bound);
    try {
      check_bound(decl.name, value, limit.tensor, is_lower, to_string(*bound));
    } catch (const ArgumentError& e) {
      // A bound of the wrong shape is the bound's fault; a value outside it, the data's.
      const bool shaped = limit.rank() != 0 && limit.tensor.sizes() != value.sizes();
      throw ModelError(shaped ? bound->span : decl.name_span, e.what());
    }
  }
}

void collect_matrix_operands(const Expr& expr, std::set<std::string>& names) {
  if (expr.kind == ExprKind::binary && expr.op == BinaryOp::matmul &&
      expr.operands[0].kind == ExprKind::name) {
    names.insert(expr.operands[0].name);
  }
  for (const auto& operand : expr.operands) collect_matrix_operands(operand, names);
  for (const auto& argument : expr.arguments) collect_matrix_operands(argument.value, names);
}

// Names that appear as the matrix in `NAME @ v`.
std::set<std::string> matrix_operands(const Program& program) {
  std::set<std::string> names;
  for (const auto& statement : program.statements) {
    if (const auto* random = statement.as<RandomStmt>()) {
      collect_matrix_operands(random->distribution, names);
    } else if (const auto* assignment = statement.as<Deterministic>()) {
      collect_matrix_operands(assignment->value, names);
    } else if (const auto* element = statement.as<ElementDefinition>()) {
      collect_matrix_operands(element->value, names);
    } else if (const auto* increment = statement.as<TargetIncrement>()) {
      collect_matrix_operands(increment->value, names);
    }
  }
  return names;
}

// Column-major ([K, N] contiguous, seen through .t()): one copy now instead of a slow
// strided read of a row-major matrix at every evaluation.
Value laid_out(Value value, const std::set<std::string>& matrix_names, const std::string& name) {
  if (matrix_names.count(name) && value.rank() == 2 && !value.batched &&
      at::isFloatingType(value.tensor.scalar_type())) {
    value.tensor = value.tensor.t().contiguous().t();
  }
  return value;
}

}  // namespace

BoundData bind_data(const CheckedModel& model, const Data& data, ConstantCache& constants,
                    at::ScalarType real_dtype) {
  if (real_dtype != at::kDouble && real_dtype != at::kFloat) {
    throw ArgumentError("bind_data: argument 'real_dtype' must be float64 or float32");
  }
  const std::set<std::string> matrix_names = matrix_operands(model.program);
  BoundData bound;
  std::vector<Declaration> declarations;
  for (const auto& statement : model.program.statements) {
    if (const auto* decl = statement.as<DataDecl>()) {
      declarations.push_back({decl, statement.span});
    }
  }
  for (const auto& node : model.nodes) {
    if (node.is_data_valued()) bound.names.insert(node.name);
  }
  Evaluator evaluator(bound.values, bound.names, constants, true);
  // Scalars first: sizes of arrays refer to them wherever they are declared.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [decl, span] : declarations) {
      if ((pass == 0) != decl->dims.empty()) continue;
      at::Tensor value;
      if (data.contains(decl->name)) {
        value = data[decl->name];
      } else if (const auto size = decl->dims.empty() ? infer_size(decl->name, declarations, data)
                                                      : std::nullopt) {
        value = at::scalar_tensor(*size, at::kLong);
      } else {
        throw ModelError(decl->name_span, "data '" + decl->name + "' is declared but missing from the data");
      }
      check_finite_data(*decl, value);
      const Shape expected = evaluate_dims(*decl, evaluator);
      if (value.sizes() != c10::IntArrayRef(expected)) {
        std::string message = "data '" + decl->name + "' has shape " +
                              variate::to_string(value.sizes()) + ", expected " +
                              variate::to_string(expected);
        if (!decl->dims.empty()) {
          message += " (declared " + std::string(base_type_name(decl->type)) + "[" +
                     describe_dims(*decl) + "])";
        }
        throw ModelError(decl->name_span, message);
      }
      const at::Tensor converted = typed(*decl, value, decl->name_span, real_dtype);
      check_bounds(*decl, converted, evaluator);
      bound.values[decl->name] =
          laid_out(Value{converted, false, decl->type == BaseType::integer}, matrix_names, decl->name);
    }
  }
  // Transformed data, once, in dependency order.
  for (size_t s : model.evaluation_order) {
    if (const auto* element = model.program.statements[s].as<ElementDefinition>()) {
      // A recurrence of data only, computed at its step (after its initial elements).
      if (element->loop && model.find(element->name)->is_data_valued()) {
        bound.values[element->name] = evaluator.evaluate_recurrence(model.elements_of(element->name));
      }
      continue;
    }
    const auto* assignment = model.program.statements[s].as<Deterministic>();
    if (!assignment) continue;
    const Node* node = model.find(assignment->name);
    if (!node->is_data_valued()) continue;
    const Value value = laid_out(evaluator.evaluate(assignment->value), matrix_names, assignment->name);
    bound.values[assignment->name] = value;
    // The statement is not evaluated again; its cached value would only keep a second copy.
    const auto cached = constants.find(&assignment->value);
    if (cached != constants.end()) cached->second = value;
  }
  return bound;
}

}  // namespace variate::model
