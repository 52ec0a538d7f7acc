#include "engine/codegen/unexportable.h"

#include <set>
#include <string>

#include "engine/model/model_error.h"

namespace variate::codegen {
namespace {

using model::Expr;
using model::ExprKind;
using model::ModelError;

const std::string kAdvice = " yet; sample the model from its .vmod";

void reject_in(const Expr& e) {
  static const std::set<std::string> functions = {"log_sum_exp", "log_sum_exp_rows", "softmax", "cumulative_sum",
                                                  "transpose"};
  if (e.kind == ExprKind::vector) throw ModelError(e.span, "variate export does not write vector literals" + kAdvice);
  if (e.kind == ExprKind::conditional) throw ModelError(e.span, "variate export does not write '? :'" + kAdvice);
  if (e.kind == ExprKind::logical_not) throw ModelError(e.span, "variate export does not write '!'" + kAdvice);
  if (e.kind == ExprKind::binary && e.op >= model::BinaryOp::equal) {
    throw ModelError(e.span, std::string("variate export does not write '") + model::binary_op_text(e.op) + "'" + kAdvice);
  }
  if (e.kind == ExprKind::call && functions.count(e.name)) {
    throw ModelError(e.span, "variate export does not write " + e.name + kAdvice);
  }
  for (const auto& operand : e.operands) reject_in(operand);
  for (const auto& argument : e.arguments) reject_in(argument.value);
}

}  // namespace

void reject_unexportable(const model::CheckedModel& model) {
  for (const auto& statement : model.program.statements) {
    if (statement.kind() == model::StatementKind::element) {
      throw ModelError(statement.name_span(), "variate export does not write recurrences" + kAdvice);
    }
    if (statement.kind() == model::StatementKind::target) {
      throw ModelError(statement.name_span(), "variate export does not write 'target +=' terms" + kAdvice);
    }
    if (const auto* data = statement.as<model::DataDecl>()) {
      if (data->lower || data->upper) {
        throw ModelError(data->name_span, "variate export does not write the bounds of data" + kAdvice);
      }
      for (const auto& dim : data->dims) reject_in(dim);
    } else if (const auto* assignment = statement.as<model::Deterministic>()) {
      reject_in(assignment->value);
    } else if (const auto* random = statement.as<model::RandomStmt>()) {
      if (random->truncation) {
        throw ModelError(random->truncation->span, "variate export does not write truncations" + kAdvice);
      }
      for (const auto& dim : random->dims) reject_in(dim);
      for (const auto& dim : random->constraint_dims) reject_in(dim);
      reject_in(random->distribution);
      if (random->bounds) {
        for (const auto* bound : {&random->bounds->lower, &random->bounds->upper}) {
          if (*bound) reject_in(**bound);
        }
      }
    }
  }
}

}  // namespace variate::codegen
