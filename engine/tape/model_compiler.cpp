#include "variate/tape/model_compiler.h"

#include <map>

#include <ATen/ATen.h>

#include "variate/model/distribution_table.h"
#include "variate/model/functions.h"
#include "variate/model/model_error.h"
#include "variate/model/printer.h"
#include "variate/tape/builder.h"
#include "variate/tape/constrain_ops.h"
#include "variate/tape/expression_ops.h"
#include "variate/tape/gather.h"
#include "variate/tape/glm_log_density.h"
#include "variate/tape/log_density_ops.h"
#include "variate/tape/unsupported.h"

namespace variate::tape {
namespace {

using model::Expr;
using model::ExprKind;

std::vector<double> doubles(const at::Tensor& t) {
  const at::Tensor c = t.to(at::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

Shape shape_of(const at::Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end()); }

class Compiler {
 public:
  explicit Compiler(const model::CompiledModel& model)
      : model_(model), checked_(model.checked()), builder_(model.layout().dimension()) {}

  Program run() && {
    parameters();
    for (size_t s : checked_.evaluation_order) {
      const model::Statement& statement = checked_.program.statements[s];
      try {
        statement_(s, statement);
      } catch (const Unsupported& e) {
        throw Unsupported("'" + statement.name() + "': " + e.what());
      }
    }
    return std::move(builder_).finish();
  }

 private:
  void parameters() {
    for (const auto& p : model_.layout().parameters()) {
      const Slot unconstrained = builder_.parameters(p.offset, p.unconstrained_shape);
      environment_[p.name] = emit_constrain(builder_, p.support, unconstrained, p.shape);
    }
  }

  void statement_(size_t s, const model::Statement& statement) {
    const model::Node& node = *checked_.find(statement.name());
    if (const auto* assignment = statement.as<model::Deterministic>()) {
      if (node.is_data_valued() || !model_.scored_nodes().count(assignment->name)) return;
      environment_[assignment->name] = expression(assignment->value);
    } else if (statement.kind() == model::StatementKind::element) {
      if (node.is_data_valued()) return;  // computed when the data was bound
      throw Unsupported("the tape has no recurrences (NAME[t] = ... for t in ...)");
    } else if (statement.kind() == model::StatementKind::target) {
      throw Unsupported("the tape has no 'target +=' terms");
    } else if (const auto* random = statement.as<model::RandomStmt>()) {
      if (random->truncation) throw Unsupported("the tape has no truncated distributions");
      if (!model_.scores(s)) return;  // another part of a split model adds it
      if (const model::FusedLikelihood* fused = model_.fused_likelihood(s)) return glm(*fused);
      DensityTerm term = density_term(random->distribution, model_.shape(random->name));
      term.value = node.kind == model::NodeKind::observed ? data(random->name) : environment_.at(random->name);
      emit_log_density(builder_, term);
    }
  }

  // A likelihood the compiler recognised as a GLM, on the same fused kernel as LibTorch's
  // path.
  void glm(const model::FusedLikelihood& fused) {
    std::optional<Slot> alpha;
    for (const Expr* term : fused.intercept_terms) {
      const Slot t = expression(*term);
      alpha = alpha ? emit_arithmetic(builder_, model::BinaryOp::add, *alpha, t) : t;
    }
    std::vector<Slot> coefficients;
    for (const auto& coefficient : fused.coefficients) coefficients.push_back(expression(*coefficient.expr));
    std::optional<Slot> sigma;
    if (fused.sigma) sigma = expression(*fused.sigma);
    emit_glm_log_density(builder_, fused.data, alpha, coefficients, sigma);
  }

  // The family and arguments of a distribution call; arguments of families of event rank
  // 0 broadcast to `shape` (the variable's, or with a Mixture's component axis).
  DensityTerm density_term(const Expr& call, const Shape& shape) {
    const model::DistributionSignature& signature = *model::find_distribution(call.name);
    const model::BoundArguments bound = *model::bind_arguments(signature, call);
    const auto& parameters = signature.parameterizations[bound.parameterization];
    DensityTerm term;
    term.family = call.name;
    term.parameterization = bound.parameterization;
    for (size_t p = 0; p < parameters.size(); ++p) {
      const Expr& argument = call.arguments[bound.argument_of_parameter[p]].value;
      if (parameters[p].is_distribution) continue;
      term.arguments.push_back(expression(argument));
    }
    for (size_t p = 0; p < parameters.size(); ++p) {
      if (!parameters[p].is_distribution) continue;
      // A Mixture's weights end in the component axis, which its component's arguments
      // gain.
      Shape component_shape = shape;
      component_shape.push_back(term.arguments.at(0).shape.back());
      const Expr& component = call.arguments[bound.argument_of_parameter[p]].value;
      term.component = std::make_shared<DensityTerm>(density_term(component, component_shape));
    }
    if (signature.event_rank == 0 && call.name != "Mixture") {
      for (Slot& argument : term.arguments) {
        if (argument.size != 1) argument = broadcast_to(builder_, argument, shape);
      }
    }
    return term;
  }

  Slot expression(const Expr& expr) {
    if (data_only(expr)) return constant(expr);
    switch (expr.kind) {
      case ExprKind::name:
        return environment_.at(expr.name);
      case ExprKind::negate:
        return emit_negate(builder_, expression(expr.operands[0]));
      case ExprKind::binary: {
        const Slot a = expression(expr.operands[0]);
        const Slot b = expression(expr.operands[1]);
        if (expr.op == model::BinaryOp::matmul) return emit_matmul(builder_, a, b);
        return emit_arithmetic(builder_, expr.op, a, b);
      }
      case ExprKind::call: {
        std::vector<Slot> arguments;
        for (const auto& argument : expr.arguments) arguments.push_back(expression(argument.value));
        return emit_call(builder_, expr.name, arguments);
      }
      case ExprKind::index:
        return index(expr);
      default:
        throw Unsupported("the tape has no kernel for '" + model::to_string(expr) + "'");
    }
  }

  // An indexed value as a gather: the same indexing applied to the positions of the base's
  // elements gives the map.
  Slot index(const Expr& expr) {
    const Expr& base = expr.operands[0];
    if (base.kind != ExprKind::name) {
      throw Unsupported("the tape indexes names only, not '" + model::to_string(base) + "'");
    }
    const Slot x = expression(base);
    const at::Tensor positions = at::arange(x.size, at::kLong).reshape(x.shape);
    const model::Value map = model_.evaluate(expr, {{base.name, model::Value{positions, false, true}}});
    const at::Tensor flat = map.tensor.contiguous();
    const std::vector<int64_t> offsets(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
    return emit_gather(builder_, x, offsets, shape_of(map.tensor));
  }

  bool data_only(const Expr& expr) const {
    if (expr.kind == ExprKind::name) {
      const model::Node* node = checked_.find(expr.name);
      return node && node->is_data_valued();
    }
    for (const auto& operand : expr.operands) {
      if (!data_only(operand)) return false;
    }
    for (const auto& argument : expr.arguments) {
      if (!data_only(argument.value)) return false;
    }
    return true;
  }

  Slot constant(const Expr& expr) {
    if (expr.kind == ExprKind::name) return data(expr.name);
    const auto it = constants_.find(&expr);
    if (it != constants_.end()) return it->second;
    const at::Tensor value = model_.evaluate(expr).tensor;
    return constants_[&expr] = builder_.constant(shape_of(value), doubles(value));
  }

  Slot data(const std::string& name) {
    const auto it = data_.find(name);
    if (it != data_.end()) return it->second;
    const at::Tensor& value = model_.data_values().at(name).tensor;
    return data_[name] = builder_.constant(shape_of(value), doubles(value));
  }

  const model::CompiledModel& model_;
  const model::CheckedModel& checked_;
  ProgramBuilder builder_;
  std::map<std::string, Slot> environment_;  // parameters and deterministic nodes
  std::map<std::string, Slot> data_;
  std::map<const Expr*, Slot> constants_;
};

}  // namespace

Program compile_model(const model::CompiledModel& model) {
  if (model.options().dtype != at::kDouble) throw Unsupported("the tape computes in float64 only");
  return Compiler(model).run();
}

}  // namespace variate::tape
