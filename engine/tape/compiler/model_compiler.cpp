#include "engine/tape/compiler/model_compiler.h"

#include <algorithm>
#include <map>
#include <optional>

#include <ATen/ATen.h>

#include "engine/model/distribution_table.h"
#include "engine/model/functions.h"
#include "engine/model/model_error.h"
#include "engine/model/ode_call.h"
#include "engine/model/printer.h"
#include "engine/model/variable_bounds.h"
#include "engine/tape/constrain/constrain_ops.h"
#include "engine/tape/densities/argument_checks.h"
#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/density_expression.h"
#include "engine/tape/densities/glm_log_density.h"
#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/densities/pointwise_log_densities.h"
#include "engine/tape/densities/random_draws.h"
#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/gather.h"
#include "engine/tape/ops/ode_op.h"
#include "engine/tape/ops/stack.h"
#include "engine/tape/program/builder.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

using model::Expr;
using model::ExprKind;

std::vector<double> doubles(const at::Tensor& t) {
  const at::Tensor c = t.to(at::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

Shape shape_of(const at::Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end()); }

// What a program computes: the log density, the values a draw records, or the
// predictive columns at constrained parameter values.
enum class Purpose { density, draw_values, predictive };

int64_t constrained_size(const ParameterLayout& layout) {
  int64_t size = 0;
  for (const auto& p : layout.parameters()) size += numel(p.shape);
  return size;
}

class Compiler {
 public:
  Compiler(const model::CompiledModel& model, Purpose purpose)
      : model_(model),
        checked_(model.checked()),
        builder_(purpose == Purpose::predictive ? constrained_size(model.layout()) : model.layout().dimension()),
        purpose_(purpose) {}

  // Compiles a function's body: `inputs` doubles in, its arguments bound by the caller.
  Compiler(const model::CompiledModel& model, int64_t inputs)
      : model_(model), checked_(model.checked()), builder_(inputs), purpose_(Purpose::density) {}

  Program run() && {
    statements();
    return std::move(builder_).finish();
  }

  DrawValuesProgram draw_values() && {
    statements();
    DrawValuesProgram result;
    const auto output = [&](const std::string& name, const Shape& shape) {
      const Slot& slot = environment_.at(name);
      if (slot.size != numel(shape)) throw Unsupported("'" + name + "': its value's size differs on the tape");
      result.outputs.push_back({name, shape, slot.offset});
    };
    for (const DrawQuantity& quantity : model_.draw_quantities()) output(quantity.name, quantity.shape);
    result.program = std::move(builder_).finish();
    for (auto& out : result.outputs) out.offset = result.program.resolve(out.offset);
    return result;
  }

  PredictiveProgram predictive() && {
    statements();
    PredictiveProgram result;
    result.observed = std::move(observed_);
    result.program = std::move(builder_).finish();
    return result;
  }

 private:
  void statements() {
    parameters();
    for (size_t s : checked_.evaluation_order) {
      const model::Statement& statement = checked_.program.statements[s];
      try {
        statement_(s, statement);
      } catch (const Unsupported& e) {
        throw Unsupported("'" + statement.name() + "': " + e.what());
      }
    }
  }

  // A derived quantity the program computes: one a density reads, or with draw values
  // every one.
  bool computed(const std::string& name) const {
    return purpose_ != Purpose::density || model_.scored_nodes().count(name) > 0;
  }

  void parameters() {
    if (purpose_ == Purpose::predictive) {  // given on their own scale, one after the other
      int64_t offset = 0;
      for (const auto& p : model_.layout().parameters()) {
        environment_[p.name] = builder_.parameters(offset, p.shape);
        offset += numel(p.shape);
      }
      return;
    }
    for (const auto& p : model_.layout().parameters()) {
      if (p.support_varies) continue;  // transformed where its bounds are computed
      const Slot unconstrained = builder_.parameters(p.offset, p.unconstrained_shape);
      environment_[p.name] = emit_constrain(builder_, p.support, unconstrained, p.shape);
    }
  }

  void statement_(size_t s, const model::Statement& statement) {
    const model::Node& node = *checked_.find(statement.name());
    if (const auto* assignment = statement.as<model::Deterministic>()) {
      if (node.is_data_valued() || !computed(assignment->name)) return;
      environment_[assignment->name] = expression(assignment->value);
    } else if (const auto* element = statement.as<model::ElementDefinition>()) {
      // The step compiles the whole recurrence, its initial elements included; one of data
      // only was computed when the data was bound.
      if (!element->loop || node.is_data_valued() || !computed(element->name)) return;
      environment_[element->name] = recurrence(checked_.elements_of(element->name));
    } else if (const auto* increment = statement.as<model::TargetIncrement>()) {
      if (purpose_ == Purpose::density && model_.scores(s)) emit_target_increment(builder_, expression(increment->value));
    } else if (const auto* random = statement.as<model::RandomStmt>()) {
      if (node.kind == model::NodeKind::latent && !environment_.count(random->name)) {
        environment_[random->name] = constrain_at_point(*random);  // its bounds vary
      }
      if (purpose_ == Purpose::predictive) {
        if (node.kind == model::NodeKind::observed) observed(*random);
        return;
      }
      if (purpose_ == Purpose::draw_values || !model_.scores(s)) return;  // no density; or another part adds it
      if (const model::FusedLikelihood* fused = model_.fused_likelihood(s)) return glm(*fused);
      DensityTerm term = density_term(random->distribution, model_.shape(random->name));
      term.value = node.kind == model::NodeKind::observed ? data(random->name) : environment_.at(random->name);
      check_arguments(random->distribution, term);
      emit_log_density(builder_, term);
      if (const auto& truncation = random->truncation) {
        emit_truncation(builder_, term, bound(truncation->lo), bound(truncation->hi));
      }
    }
  }

  // A parameter whose bounds depend on other parameters, transformed with the bounds its
  // statement computes (model::bound_expressions); a truncation's open side keeps the
  // family's own bound (a positive family's 0), as distributions::Truncated does.
  Slot constrain_at_point(const model::RandomStmt& random) {
    const ParameterInfo& p = model_.layout()[random.name];
    const model::BoundExpressions bounds = model::bound_expressions(random);
    const auto bound = [&](const Expr* e) -> std::optional<Slot> {
      if (!e) return std::nullopt;
      const Slot b = expression(*e);
      return b.size == 1 ? b : broadcast_to(builder_, b, p.shape);
    };
    std::optional<Slot> lower = bound(bounds.lower);
    const std::optional<Slot> upper = bound(bounds.upper);
    const at::Tensor& own = p.support.lower();
    if (!lower && random.truncation && p.support.kind() == Support::Kind::Interval && own.numel() == 1) {
      lower = builder_.scalar(own.item<double>());
    }
    if (!lower && !upper) throw Unsupported("the tape has no kernel for the bounds of '" + random.name + "'");
    const Slot y = builder_.parameters(p.offset, p.unconstrained_shape);
    return emit_bounds_at_point(builder_, lower, upper, Slot{y.offset, y.size, p.shape, true});
  }

  // An observed variable's replicated draw and its log likelihood observation by
  // observation; its data stays its value for what follows (a lag reads the data).
  void observed(const model::RandomStmt& random) {
    const Shape shape = model_.shape(random.name);
    DensityTerm term = density_term(random.distribution, shape);
    term.value = data(random.name);
    // One log likelihood per observation: an element, or a row of a multivariate family.
    const Shape lik_shape = leading_shape(shape, model::find_distribution(random.distribution.name)->event_rank);
    const Slot replicated = builder_.varying(shape);
    Slot log_lik = builder_.varying(lik_shape);
    if (const auto& truncation = random.truncation) {
      const std::optional<Slot> lo = bound(truncation->lo), hi = bound(truncation->hi);
      emit_truncated_draw(builder_, term, lo, hi, replicated);
      emit_pointwise_log_density(builder_, term, log_lik);
      log_lik = emit_truncated_pointwise(builder_, term, lo, hi, log_lik);
    } else {
      emit_random_draw(builder_, term, replicated);
      emit_pointwise_log_density(builder_, term, log_lik);
    }
    observed_.push_back({random.name, shape, lik_shape, replicated.offset, log_lik.offset});
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
    if (sigma) emit_argument_check(builder_, model::ArgumentDomain::positive, *sigma);
    emit_glm_log_density(builder_, fused.data, alpha, coefficients, sigma);
  }

  // The arguments computed from parameters, checked at each evaluation as the LibTorch
  // path checks them with validation on (a Mixture's weights and its component's).
  void check_arguments(const Expr& call, const DensityTerm& term) {
    const model::DistributionSignature& signature = *model::find_distribution(call.name);
    const model::BoundArguments bound = *model::bind_arguments(signature, call);
    size_t k = 0;
    const auto& parameters = signature.parameterizations[bound.parameterization];
    for (size_t p = 0; p < parameters.size(); ++p) {
      if (parameters[p].is_distribution) {  // a Mixture's component, checked as LibTorch builds it
        check_arguments(call.arguments[bound.argument_of_parameter[p]].value, *term.component);
        continue;
      }
      const Slot& argument = term.arguments.at(k++);
      emit_argument_check(builder_, model::argument_domain(call.name, parameters[p].name), argument);
      if (model::must_be_finite(call.name, parameters[p].name)) emit_finite_check(builder_, argument);
    }
    if (call.name == "Uniform") emit_less_check(builder_, term.arguments.at(0), term.arguments.at(1));
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
    // A parameter with an event of its own (Categorical's table of K) keeps its shape: its
    // sink maps its rows onto the value's.
    if (signature.event_rank == 0 && call.name != "Mixture") {
      size_t k = 0;
      for (const auto& parameter : parameters) {
        if (parameter.is_distribution) continue;
        Slot& argument = term.arguments[k++];
        if (parameter.event_rank == 0 && argument.size != 1) argument = broadcast_to(builder_, argument, shape);
      }
    }
    return term;
  }

  // A recurrence unrolled: element t's expression compiled with t bound, reading the
  // slots of the elements before it; then the elements stacked into the node's value.
  Slot recurrence(const std::vector<const model::ElementDefinition*>& statements) {
    recurrence_.emplace();
    recurrence_->name = &statements.front()->name;
    for (const model::ElementDefinition* element : statements) {
      if (!element->loop) {
        recurrence_->elements.push_back(expression(element->value));
        continue;
      }
      const int64_t lo = static_cast<int64_t>(recurrence_->elements.size()) + 1;
      const int64_t hi = model_.evaluate(element->loop->hi).tensor.item<int64_t>();
      recurrence_->variable = &element->loop->variable;
      for (recurrence_->t = lo; recurrence_->t <= hi; ++recurrence_->t) {
        recurrence_->elements.push_back(expression(element->value));
      }
    }
    const std::vector<Slot> elements = std::move(recurrence_->elements);
    recurrence_.reset();
    return emit_stack(builder_, elements);
  }

  // The step's variable as the evaluator binds it, while a step is compiled.
  std::map<std::string, model::Value> step_binding() const {
    if (!recurrence_ || !recurrence_->variable) return {};
    return {{*recurrence_->variable, model::Value{at::scalar_tensor(recurrence_->t, at::kLong), false, true}}};
  }

  bool is_step_variable(const std::string& name) const {
    return recurrence_ && recurrence_->variable && name == *recurrence_->variable;
  }

  bool mentions_step_variable(const Expr& expr) const {
    if (expr.kind == ExprKind::name) return is_step_variable(expr.name);
    for (const auto& operand : expr.operands) {
      if (mentions_step_variable(operand)) return true;
    }
    for (const auto& argument : expr.arguments) {
      if (mentions_step_variable(argument.value)) return true;
    }
    return false;
  }

  // A truncation's bound; none for an open side.
  std::optional<Slot> bound(const std::optional<Expr>& e) {
    return e ? std::optional<Slot>(expression(*e)) : std::nullopt;
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
        if (model::is_ode_call(expr)) return ode(expr);
        if (!expr.operands.empty()) return expression(expr.operands[0]);  // a user function, inlined
        std::vector<Slot> arguments;
        for (const auto& argument : expr.arguments) arguments.push_back(expression(argument.value));
        return emit_call(builder_, expr.name, arguments);
      }
      case ExprKind::index:
        return index(expr);
      case ExprKind::density:
        return density(expr);
      case ExprKind::logical_not:
        return emit_arithmetic(builder_, model::BinaryOp::equal, expression(expr.operands[0]), builder_.scalar(0));
      case ExprKind::conditional:
        return emit_conditional(builder_, expression(expr.operands[0]), expression(expr.operands[1]),
                                expression(expr.operands[2]));
      case ExprKind::vector: {
        std::vector<Slot> items;
        for (const auto& item : expr.operands) items.push_back(expression(item));
        return emit_stack(builder_, items);
      }
      default:
        throw Unsupported("the tape has no kernel for '" + model::to_string(expr) + "'");
    }
  }

  // `ode_rk45(f, y0, t0, ts, ...)`: its times and tolerances from the data, its right-hand
  // side compiled as a program of inputs (t, y, the passed reals).
  Slot ode(const Expr& expr) {
    const model::OdeForm form = *model::ode_form(expr.name);
    const auto data = [&](size_t i) { return doubles(model_.evaluate(expr.arguments[i].value).tensor); };
    OdeSettings settings;
    settings.solver = form.solver;
    settings.t0 = data(2)[0];
    settings.times = data(3);
    if (form.tolerances) {
      settings.tolerances.relative = data(4)[0];
      settings.tolerances.absolute = data(5)[0];
      settings.tolerances.max_steps = static_cast<int64_t>(data(6)[0]);
    }
    const Slot y0 = expression(expr.arguments[1].value);
    // f's arguments after t and y: an int is data, a real a slot (and part of theta).
    std::vector<std::optional<at::Tensor>> integers;
    std::vector<Slot> passed_reals;
    for (size_t i = form.first_passed(); i < expr.arguments.size(); ++i) {
      const Expr& argument = expr.arguments[i].value;
      const bool integer = expr.types[2 + i - form.first_passed()] == model::ValueType::integer;
      integers.push_back(integer ? std::optional<at::Tensor>(model_.evaluate(argument).tensor) : std::nullopt);
      if (!integer) passed_reals.push_back(expression(argument));
    }
    auto rhs = std::make_shared<RightHandSide>();
    rhs->states = y0.size;
    for (const Slot& slot : passed_reals) rhs->parameters += slot.size;
    Compiler body(model_, 1 + rhs->states + rhs->parameters);
    body.environment_[model::ode_argument_name(0)] = body.builder_.parameters(0, {});
    body.environment_[model::ode_argument_name(1)] = body.builder_.parameters(1, {rhs->states});
    int64_t offset = 1 + rhs->states;
    auto real = passed_reals.begin();
    for (size_t j = 0; j < integers.size(); ++j) {
      Slot& bound = body.environment_[model::ode_argument_name(2 + j)];
      if (integers[j]) {
        bound = body.builder_.constant(shape_of(*integers[j]), doubles(*integers[j]));
      } else {
        bound = body.builder_.parameters(offset, real->shape);
        offset += (real++)->size;
      }
    }
    const Slot dydt = body.expression(expr.operands[0]);
    if (dydt.size != rhs->states)
      throw Unsupported("'" + expr.arguments[0].value.name + "' returns a value of another size");
    rhs->program = std::move(body.builder_).finish();
    rhs->output = rhs->program.resolve(dydt.offset);
    return emit_ode(builder_, std::move(rhs), std::move(settings), y0, passed_reals);
  }

  // `Normal(mu, sigma).log_prob(x)` (log_cdf, log_ccdf): the point and the arguments
  // broadcast to one shape, checked at each point as a `~` statement's are.
  Slot density(const Expr& expr) {
    const Expr& call = expr.operands[0];
    const model::DistributionSignature& signature = *model::find_distribution(call.name);
    const model::BoundArguments bound = *model::bind_arguments(signature, call);
    const auto& parameters = signature.parameterizations[bound.parameterization];
    if (signature.event_rank != 0) throw Unsupported("the tape has no " + call.name + "." + expr.name);
    DensityTerm term;
    term.family = call.name;
    term.parameterization = bound.parameterization;
    const Slot x = expression(expr.operands[1]);
    Shape shape = x.shape;
    for (size_t p = 0; p < parameters.size(); ++p) {
      if (parameters[p].is_distribution || parameters[p].event_rank != 0) {
        throw Unsupported("the tape has no " + call.name + "." + expr.name);
      }
      term.arguments.push_back(expression(call.arguments[bound.argument_of_parameter[p]].value));
      shape = broadcast_shapes(shape, term.arguments.back().shape);
    }
    for (Slot& argument : term.arguments) {
      if (argument.size != 1 && argument.shape != shape) argument = broadcast_to(builder_, argument, shape);
    }
    term.value = x.shape == shape ? x : broadcast_to(builder_, x, shape);
    check_arguments(call, term);
    if (expr.name == "log_prob") return emit_log_prob(builder_, term);
    return emit_log_cdf(builder_, term, expr.name == "log_ccdf");
  }

  // An indexed value as a gather: the same indexing applied to the positions of the base's
  // elements gives the map.
  Slot index(const Expr& expr) {
    const Expr& base = expr.operands[0];
    if (recurrence_ && base.kind == ExprKind::name && base.name == *recurrence_->name) return element_read(expr);
    return gather(expr, expression(base));
  }

  // NAME[i, ...] inside NAME's recurrence: element i's slot, then the other items on it.
  Slot element_read(const Expr& expr) {
    const int64_t i = model_.evaluate(expr.operands[1], step_binding()).tensor.item<int64_t>();
    const Slot element = recurrence_->elements.at(static_cast<size_t>(i - 1));
    if (expr.operands.size() == 2) return element;
    model::Expr rest = expr;
    rest.operands.erase(rest.operands.begin() + 1);
    return gather(rest, element);
  }

  // `expr`, an indexing of `expr.operands[0]` whose value is x: the base replaced by a
  // name no model can spell, bound to x's positions.
  Slot gather(const Expr& expr, const Slot& x) {
    const std::string base = " indexed";
    model::Expr positions_expr = expr;
    positions_expr.operands[0] = model::Expr::identifier(base, expr.operands[0].span);
    const at::Tensor positions = at::arange(x.size, at::kLong).reshape(x.shape);
    std::map<std::string, model::Value> bindings = step_binding();
    bindings[base] = model::Value{positions, false, true};
    const model::Value map = model_.evaluate(positions_expr, bindings);
    const at::Tensor flat = map.tensor.contiguous();
    const std::vector<int64_t> offsets(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
    return emit_gather(builder_, x, offsets, shape_of(map.tensor));
  }

  bool data_only(const Expr& expr) const {
    if (model::is_ode_call(expr)) {  // its first argument names a function; its body reads f's arguments
      for (size_t i = 1; i < expr.arguments.size(); ++i) {
        if (!data_only(expr.arguments[i].value)) return false;
      }
      return true;
    }
    if (expr.kind == ExprKind::name) {
      if (is_step_variable(expr.name)) return true;
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
    if (mentions_step_variable(expr)) {
      // A new value for each t, so not cached.
      const at::Tensor value = model_.evaluate(expr, step_binding()).tensor;
      return builder_.constant(shape_of(value), doubles(value));
    }
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
  // The recurrence being compiled: its elements so far, and while its step is compiled
  // the step's variable and its value t.
  struct Recurrence {
    const std::string* name = nullptr;
    std::vector<Slot> elements;
    const std::string* variable = nullptr;
    int64_t t = 0;
  };
  std::optional<Recurrence> recurrence_;
  Purpose purpose_;
  std::vector<PredictiveProgram::Observed> observed_;
};

}  // namespace

Program compile_model(const model::CompiledModel& model) {
  if (model.options().dtype != at::kDouble) throw Unsupported("the tape computes in float64 only");
  return Compiler(model, Purpose::density).run();
}

DrawValuesProgram compile_draw_values(const model::CompiledModel& model) {
  if (model.options().dtype != at::kDouble) throw Unsupported("the tape computes in float64 only");
  return Compiler(model, Purpose::draw_values).draw_values();
}

PredictiveProgram compile_predictive(const model::CompiledModel& model) {
  if (model.options().dtype != at::kDouble) throw Unsupported("the tape computes in float64 only");
  return Compiler(model, Purpose::predictive).predictive();
}

}  // namespace variate::tape
