#include "engine/model/evaluator.h"

#include <cmath>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/distributions/cumulative.h"
#include "engine/model/distribution_table.h"
#include "engine/model/functions.h"
#include "engine/model/model_error.h"
#include "engine/model/ode_evaluation.h"
#include "engine/model/printer.h"

namespace variate::model {
namespace {

at::Tensor floating(const at::Tensor& t) {
  return at::isFloatingType(t.scalar_type()) ? t : t.to(at::kDouble);
}

std::string quoted(const Expr& expr) { return "'" + to_string(expr) + "'"; }

}  // namespace

Evaluator::Evaluator(const std::map<std::string, Value>& environment,
                     const std::set<std::string>& data_names, ConstantCache& constants,
                     bool checking, const std::map<std::string, Value>* outer)
    : environment_(environment), outer_(outer), data_names_(data_names), constants_(constants),
      checking_(checking) {}

Value Evaluator::evaluate(const Expr& expr) { return visit(expr).value; }

Evaluator::Result Evaluator::visit(const Expr& expr) {
  const auto cached = constants_.find(&expr);
  if (cached != constants_.end()) return {cached->second, true};
  Result result = visit_uncached(expr);
  if (result.constant && checking_) constants_[&expr] = result.value;
  return result;
}

Evaluator::Result Evaluator::visit_uncached(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::number:
      return {{expr.is_integer ? at::scalar_tensor(static_cast<int64_t>(expr.value), at::kLong)
                               : at::scalar_tensor(expr.value, at::kDouble),
               false, expr.is_integer},
              true};
    case ExprKind::name: {
      if (recurrence_ && recurrence_->variable && expr.name == *recurrence_->variable) {
        return {recurrence_->position, false};
      }
      const Value* found = nullptr;
      if (const auto it = environment_.find(expr.name); it != environment_.end()) {
        found = &it->second;
      } else if (outer_) {
        if (const auto outer = outer_->find(expr.name); outer != outer_->end()) found = &outer->second;
      }
      if (!found) throw ModelError(expr.span, "'" + expr.name + "' has no value here");
      return {*found, data_names_.count(expr.name) > 0};
    }
    case ExprKind::negate: {
      const Result operand = visit(expr.operands[0]);
      const Value& v = operand.value;
      return {{-v.tensor, v.batched, v.integer}, operand.constant};
    }
    case ExprKind::binary: {
      const Result lhs = visit(expr.operands[0]);
      const Result rhs = visit(expr.operands[1]);
      return {binary(expr, lhs.value, rhs.value), lhs.constant && rhs.constant};
    }
    case ExprKind::call: {
      if (is_ode_call(expr)) return ode_call(expr);
      if (!expr.operands.empty()) return user_call(expr);
      std::vector<Value> arguments;
      bool constant = true;
      for (const auto& argument : expr.arguments) {
        Result r = visit(argument.value);
        constant = constant && r.constant;
        arguments.push_back(std::move(r.value));
      }
      return {call_function(expr, arguments, checking_), constant};
    }
    case ExprKind::logical_not: {
      const Result operand = visit(expr.operands[0]);
      const Value& v = operand.value;
      return {{(v.tensor == 0).to(at::kDouble), v.batched, false}, operand.constant};
    }
    case ExprKind::vector: return vector(expr);
    case ExprKind::conditional: return conditional(expr);
    case ExprKind::density:
      return density(expr);
    case ExprKind::index: {
      if (recurrence_ && expr.operands[0].kind == ExprKind::name && expr.operands[0].name == *recurrence_->name) {
        return element_read(expr);
      }
      const Result base = visit(expr.operands[0]);
      bool constant = base.constant;
      const std::vector<Value> items = index_items(expr, 1, constant);
      return {index(expr, base.value, items), constant};
    }
    case ExprKind::full_slice:
    case ExprKind::range:
      throw ModelError(expr.span, "':' is only allowed inside an index, as in X[:, 2]");
  }
  throw ModelError(expr.span, "unsupported expression");
}

namespace {

// A user function's argument or result against its declared type.
void check_type(const Expr& at, const Value& value, ValueType type, const std::string& what) {
  const int64_t rank = value_type_rank(type);
  if (value.rank() != rank) {
    throw ModelError(at.span, what + " is declared " + value_type_name(type) + " but has shape " +
                                  variate::to_string(value.point_shape()));
  }
  if (type == ValueType::integer && !value.integer) {
    throw ModelError(at.span, what + " is declared int but holds reals");
  }
}

}  // namespace

// A user function's call, inlined by the checker (user_functions.h): its body with the
// arguments in place; while checking, the arguments' and the value's types too.
Evaluator::Result Evaluator::user_call(const Expr& expr) {
  if (checking_) {
    for (size_t i = 0; i < expr.arguments.size(); ++i) {
      const Expr& argument = expr.arguments[i].value;
      check_type(argument, visit(argument).value, expr.types[i],
                 "argument " + std::to_string(i + 1) + " of '" + expr.name + "' (" + quoted(argument) + ")");
    }
  }
  Result result = visit(expr.operands[0]);
  if (checking_) check_type(expr, result.value, expr.types.back(), "the value of " + quoted(expr));
  return result;
}

// `ode_rk45(f, y0, t0, ts, ...)` (ode_call.h): the times and tolerances from the data, then
// one solve per point of a batch.
Evaluator::Result Evaluator::ode_call(const Expr& expr) {
  OdeProblem problem;
  problem.call = &expr;
  problem.form = *ode_form(expr.name);
  problem.checking = checking_;
  const auto data_argument = [&](size_t i, const char* what, int64_t rank) {
    const Expr& argument = expr.arguments[i].value;
    const Result r = visit(argument);
    if (!r.constant) {
      throw ModelError(argument.span, std::string(what) + " of '" + expr.name + "' (" + quoted(argument) +
                                          ") must be data: it cannot depend on parameters");
    }
    if (r.value.rank() != rank) {
      throw ModelError(argument.span, std::string(what) + " of '" + expr.name + "' must be " +
                                          (rank == 0 ? "a scalar" : "a vector") + ", got shape " +
                                          variate::to_string(r.value.point_shape()));
    }
    const at::Tensor t = r.value.tensor.to(at::kDouble).contiguous();
    return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
  };
  problem.t0 = data_argument(2, "the initial time t0", 0)[0];
  problem.times = data_argument(3, "the output times ts", 1);
  if (problem.form.tolerances) {
    problem.tolerances.relative = data_argument(4, "rel_tol", 0)[0];
    problem.tolerances.absolute = data_argument(5, "abs_tol", 0)[0];
    problem.tolerances.max_steps = static_cast<int64_t>(data_argument(6, "max_num_steps", 0)[0]);
  }
  const Expr& y0_expr = expr.arguments[1].value;
  const Result y0 = visit(y0_expr);
  if (checking_ && y0.value.rank() != 1) {
    throw ModelError(y0_expr.span, "the initial state y0 of '" + expr.name + "' must be a vector, got shape " +
                                       variate::to_string(y0.value.point_shape()));
  }
  bool constant = y0.constant, batched = y0.value.batched;
  int64_t batch = y0.value.batch_size();
  std::vector<Value> passed;
  for (size_t i = problem.form.first_passed(); i < expr.arguments.size(); ++i) {
    const Expr& argument = expr.arguments[i].value;
    const Result r = visit(argument);
    const size_t k = 2 + i - problem.form.first_passed();  // f's argument
    if (checking_) {
      check_type(argument, r.value, expr.types[k],
                 "argument " + std::to_string(k + 1) + " of '" + expr.arguments[0].value.name + "' (" +
                     quoted(argument) + ")");
    }
    if (r.value.integer && !r.constant) {
      throw ModelError(argument.span, quoted(argument) + " is an int passed to '" + expr.arguments[0].value.name +
                                          "': it must be data");
    }
    constant = constant && r.constant;
    if (r.value.batched) batch = r.value.batch_size();
    batched = batched || r.value.batched;
    passed.push_back(r.value);
  }
  problem.sensitivities = !constant;
  const auto point = [](const Value& v, int64_t b) { return v.batched ? Value{v.tensor[b], false, v.integer} : v; };
  std::vector<at::Tensor> solutions;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Value> passed_here;
    for (const Value& v : passed) passed_here.push_back(point(v, b));
    const at::Tensor start = point(y0.value, b).tensor;
    if (!batched) {
      solutions.push_back(solve_ode_on_torch(problem, start, passed_here));
      continue;
    }
    try {
      solutions.push_back(solve_ode_on_torch(problem, start, passed_here));
    } catch (const ModelError&) {
      // A batch is evaluated without argument checks: this point's density becomes NaN,
      // which samplers treat as a divergence, and the other points go on.
      const auto times = static_cast<int64_t>(problem.times.size());
      const auto dtype = at::isFloatingType(start.scalar_type()) ? start.scalar_type() : at::kDouble;
      solutions.push_back(at::full({times, start.numel()}, NAN, start.options().dtype(dtype)));
    }
  }
  return {{batched ? at::stack(solutions) : solutions[0], batched, false}, constant};
}

// `Normal(mu, sigma).log_prob(x)`: the family built from its arguments, each lifted to the
// rank they and x broadcast to (plus its own event rank), evaluated at x elementwise.
Evaluator::Result Evaluator::density(const Expr& expr) {
  const Expr& call = expr.operands[0];
  const DistributionSignature& signature = *find_distribution(call.name);
  const BoundArguments bound = *bind_arguments(signature, call);
  const auto& parameters = signature.parameterizations[bound.parameterization];
  const Result point = visit(expr.operands[1]);
  bool constant = point.constant;
  bool batched = point.value.batched;
  int64_t rank = point.value.rank() - signature.event_rank;
  std::vector<Value> values;
  for (size_t p = 0; p < parameters.size(); ++p) {
    Result r = visit(call.arguments[bound.argument_of_parameter[p]].value);
    constant = constant && r.constant;
    batched = batched || r.value.batched;
    rank = std::max(rank, r.value.rank() - parameters[p].event_rank);
    values.push_back(std::move(r.value));
  }
  rank = std::max<int64_t>(rank, 0);
  if (checking_) {  // the point and the arguments, less their event dimensions, broadcast
    const auto batch_shape = [](const Value& v, int64_t event_rank) {
      const Shape shape = v.point_shape();
      return Shape(shape.begin(), shape.end() - std::min<int64_t>(event_rank, static_cast<int64_t>(shape.size())));
    };
    Shape shape;
    const auto join = [&](const Shape& next) {
      try {
        shape = broadcast_shapes(shape, next);
      } catch (const ArgumentError&) {
        throw ModelError(expr.span, "shapes " + variate::to_string(shape) + " and " + variate::to_string(next) +
                                        " do not broadcast in " + quoted(expr));
      }
    };
    for (size_t p = 0; p < parameters.size(); ++p) join(batch_shape(values[p], parameters[p].event_rank));
    join(batch_shape(point.value, signature.event_rank));
  }
  DistributionArguments arguments;
  arguments.declared_shape = point.value.point_shape();
  for (size_t p = 0; p < parameters.size(); ++p) {
    arguments.tensors.push_back(
        lift({floating(values[p].tensor), values[p].batched, false}, rank + parameters[p].event_rank));
  }
  const at::Tensor x = lift({floating(point.value.tensor), point.value.batched, false}, rank + signature.event_rank);
  // As a `~` statement's: data-only arguments are validated while checking, the others at
  // a sampler's point when argument checks are on.
  ValidationGuard validation(checking_ ? constant : validation_enabled() || (argument_checks_enabled() && !constant));
  try {
    const DistributionPtr d = signature.build(bound.parameterization, arguments);
    if (expr.name == "log_prob") return {{d->log_prob(x), batched, false}, constant};
    const auto* cumulative = dynamic_cast<const distributions::Cumulative*>(d.get());
    if (!cumulative) throw ModelError(expr.span, call.name + " has no " + expr.name);
    const at::Tensor cdf = expr.name == "log_cdf" ? cumulative->log_cdf(x) : cumulative->log_ccdf(x);
    return {{cdf.expand(at::infer_size(cdf.sizes(), x.sizes())), batched, false}, constant};
  } catch (const ModelError&) {
    throw;
  } catch (const DomainError& e) {
    throw ModelError(call.span, model_message(e, parameters));
  } catch (const ArgumentError& e) {
    throw ModelError(expr.span, e.what());
  } catch (const c10::Error& e) {
    throw ModelError(expr.span, call.name + "." + expr.name + ": " + e.what_without_backtrace());
  }
}

std::vector<Value> Evaluator::index_items(const Expr& expr, size_t first, bool& constant) {
  std::vector<Value> items;
  for (size_t i = first; i < expr.operands.size(); ++i) {
    const Expr& item = expr.operands[i];
    if (item.kind == ExprKind::full_slice) {
      items.push_back({});
    } else if (item.kind == ExprKind::range) {
      const Result lo = visit(item.operands[0]);
      const Result hi = visit(item.operands[1]);
      // A range travels as a 2-vector [lo, hi].
      items.push_back({at::stack({lo.value.tensor.to(at::kLong), hi.value.tensor.to(at::kLong)}),
                       false, lo.value.integer && hi.value.integer});
      constant = constant && lo.constant && hi.constant;
    } else {
      Result r = visit(item);
      constant = constant && r.constant;
      items.push_back(std::move(r.value));
    }
  }
  return items;
}

Value Evaluator::binary(const Expr& expr, const Value& lhs, const Value& rhs) {
  if (expr.op == BinaryOp::matmul) return matmul(expr, lhs, rhs);
  if (expr.op >= BinaryOp::equal) return compare(expr, lhs, rhs);
  if (checking_) {
    try {
      broadcast_shapes(lhs.point_shape(), rhs.point_shape());
    } catch (const ArgumentError&) {
      throw ModelError(expr.span, "shapes " + variate::to_string(lhs.point_shape()) + " and " +
                                      variate::to_string(rhs.point_shape()) + " do not broadcast in " +
                                      quoted(expr));
    }
  }
  const auto [a, b] = align(lhs, rhs);
  const bool batched = lhs.batched || rhs.batched;
  const bool integers = lhs.integer && rhs.integer;
  switch (expr.op) {
    case BinaryOp::add: return {a + b, batched, integers};
    case BinaryOp::subtract: return {a - b, batched, integers};
    case BinaryOp::multiply: return {a * b, batched, integers};
    case BinaryOp::divide: return {floating(a) / b, batched, false};
    case BinaryOp::power: return {at::pow(floating(a), b), batched, false};
    default: break;
  }
  throw ModelError(expr.span, "unsupported operator");
}

Value Evaluator::matmul(const Expr& expr, const Value& lhs, const Value& rhs) {
  const int64_t ra = lhs.rank();
  const int64_t rb = rhs.rank();
  if (ra < 1 || ra > 2 || rb < 1 || rb > 2) {
    throw ModelError(expr.span, "'@' multiplies matrices and vectors, got shapes " +
                                    variate::to_string(lhs.point_shape()) + " and " +
                                    variate::to_string(rhs.point_shape()) + " in " + quoted(expr));
  }
  const int64_t inner_a = lhs.point_shape().back();
  const int64_t inner_b = rhs.point_shape().front();
  if (inner_a != inner_b) {
    throw ModelError(expr.span, "'@' needs matching inner sizes, got shapes " +
                                    variate::to_string(lhs.point_shape()) + " and " +
                                    variate::to_string(rhs.point_shape()) + " in " + quoted(expr));
  }
  // '@' promotes like the elementwise operators (at::matmul itself does not): in a float32
  // model, a float32 matrix times a float64 one (eye(N) is float64) computes in float64.
  const at::ScalarType type = at::promote_types(floating(lhs.tensor).scalar_type(), floating(rhs.tensor).scalar_type());
  const at::Tensor a = lhs.tensor.to(type);
  const at::Tensor b = rhs.tensor.to(type);
  const bool batched = lhs.batched || rhs.batched;
  at::Tensor result;
  if (ra == 2 && rb == 1) {
    if (!rhs.batched) {
      result = at::matmul(a, b);
    } else if (!lhs.batched) {
      result = at::matmul(b, a.t());  // a batch of row vectors times the transpose
    } else {
      result = at::matmul(a, b.unsqueeze(-1)).squeeze(-1);
    }
  } else if (ra == 2 && rb == 2) {
    result = at::matmul(a, b);
  } else if (ra == 1 && rb == 2) {
    result = lhs.batched && rhs.batched ? at::matmul(a.unsqueeze(-2), b).squeeze(-2)
                                        : at::matmul(a, b);
  } else {
    const auto [x, y] = align({a, lhs.batched, false}, {b, rhs.batched, false});
    result = (x * y).sum(-1);
  }
  return {result, batched, false};
}

Value Evaluator::index(const Expr& expr, const Value& base, const std::vector<Value>& items) {
  if (static_cast<int64_t>(items.size()) > base.rank()) {
    throw ModelError(expr.span, quoted(expr.operands[0]) + " has " + std::to_string(base.rank()) +
                                    " dimension(s) but is indexed with " +
                                    std::to_string(items.size()));
  }
  at::Tensor result = base.tensor;
  int64_t dim = base.batched ? 1 : 0;  // tensor dimension the next item applies to
  for (size_t i = 0; i < items.size(); ++i) {
    const Expr& item_expr = expr.operands[i + 1];
    const Value& item = items[i];
    const int64_t size = result.size(dim);
    if (item_expr.kind == ExprKind::full_slice) {
      ++dim;
      continue;
    }
    if (item.batched || !item.integer) {
      throw ModelError(item_expr.span, "indices must be integers from the data, but " +
                                           quoted(item_expr) + " is " +
                                           (item.batched ? "a parameter" : "real-valued"));
    }
    if (item_expr.kind == ExprKind::range) {
      const int64_t lo = item.tensor[0].item<int64_t>();
      const int64_t hi = item.tensor[1].item<int64_t>();
      if (lo < 1 || hi > size || lo > hi + 1) {
        throw ModelError(item_expr.span, "range " + std::to_string(lo) + ":" + std::to_string(hi) +
                                             " is out of bounds for a dimension of size " +
                                             std::to_string(size) + " (indices are 1-based)");
      }
      result = result.narrow(dim, lo - 1, hi - lo + 1);
      ++dim;
      continue;
    }
    if (checking_) {
      const at::Tensor bad = (item.tensor < 1) | (item.tensor > size);
      if (bad.any().item<bool>()) {
        const int64_t value = item.tensor.reshape(-1)[bad.reshape(-1).nonzero()[0][0]].item<int64_t>();
        throw ModelError(item_expr.span, "index " + std::to_string(value) + " is out of bounds for " +
                                             quoted(expr.operands[0]) + ", whose dimension " +
                                             std::to_string(i + 1) + " has size " + std::to_string(size) +
                                             " (indices are 1-based)");
      }
    }
    if (item.rank() == 0) {
      result = result.select(dim, item.tensor.item<int64_t>() - 1);
    } else {
      const at::Tensor positions = item.tensor.reshape(-1) - 1;
      at::Tensor gathered = result.index_select(dim, positions);
      Shape shape(gathered.sizes().begin(), gathered.sizes().end());
      const Shape item_shape = item.point_shape();
      shape.erase(shape.begin() + dim);
      shape.insert(shape.begin() + dim, item_shape.begin(), item_shape.end());
      result = gathered.reshape(shape);
      dim += static_cast<int64_t>(item_shape.size());
    }
  }
  return {result, base.batched, base.integer};
}

}  // namespace variate::model

namespace variate::model {
namespace {

// A batched value for `batch` points: unbatched ones are repeated.
at::Tensor with_batch(const Value& v, int64_t batch) {
  if (v.batched) return v.tensor;
  Shape shape{batch};
  for (int64_t size : v.tensor.sizes()) shape.push_back(size);
  return v.tensor.unsqueeze(0).expand(shape);
}

// Values of the same point shape stacked along a new first point dimension.
Value stack_points(const std::vector<Value>& items) {
  int64_t batch = 0;
  bool integers = true;
  at::ScalarType type = items.front().tensor.scalar_type();
  for (const auto& item : items) {
    if (item.batched) batch = item.tensor.size(0);
    integers = integers && item.integer;
    type = at::promote_types(type, item.tensor.scalar_type());
  }
  std::vector<at::Tensor> tensors;
  for (const auto& item : items) tensors.push_back((batch > 0 ? with_batch(item, batch) : item.tensor).to(type));
  return {at::stack(tensors, batch > 0 ? 1 : 0), batch > 0, integers};
}

}  // namespace

Evaluator::Result Evaluator::vector(const Expr& expr) {
  std::vector<Value> items;
  bool constant = true;
  for (const auto& item : expr.operands) {
    Result r = visit(item);
    constant = constant && r.constant;
    items.push_back(std::move(r.value));
  }
  const Shape first = items.front().point_shape();
  if (first.size() > 1) {
    throw ModelError(expr.operands.front().span, "a vector's items are scalars, or vectors for the rows of a matrix; " +
                                                     quoted(expr.operands.front()) + " has shape " + variate::to_string(first));
  }
  for (size_t i = 1; i < items.size(); ++i) {
    if (items[i].point_shape() != first) {
      throw ModelError(expr.operands[i].span, "the items of a vector have one shape: item 1 has shape " +
                                                  variate::to_string(first) + " but item " + std::to_string(i + 1) + " (" +
                                                  quoted(expr.operands[i]) + ") has shape " +
                                                  variate::to_string(items[i].point_shape()));
    }
  }
  return {stack_points(items), constant};
}

// Comparisons and logical operators give 1 or 0 as reals, elementwise. Unlike arithmetic
// they do not broadcast a vector against a matrix: such a comparison is almost always a
// mistake, so the shapes must be equal or one of them a scalar.
Value Evaluator::compare(const Expr& expr, const Value& lhs, const Value& rhs) {
  if (checking_ && lhs.rank() > 0 && rhs.rank() > 0 && lhs.point_shape() != rhs.point_shape()) {
    throw ModelError(expr.span, std::string("'") + binary_op_text(expr.op) + "' needs operands of one shape (or a scalar), got shapes " +
                                    variate::to_string(lhs.point_shape()) + " and " +
                                    variate::to_string(rhs.point_shape()) + " in " + quoted(expr));
  }
  const auto [a, b] = align(lhs, rhs);
  at::Tensor result;
  switch (expr.op) {
    case BinaryOp::equal: result = a == b; break;
    case BinaryOp::not_equal: result = a != b; break;
    case BinaryOp::less: result = a < b; break;
    case BinaryOp::less_equal: result = a <= b; break;
    case BinaryOp::greater: result = a > b; break;
    case BinaryOp::greater_equal: result = a >= b; break;
    case BinaryOp::logical_and: result = (a != 0) & (b != 0); break;
    case BinaryOp::logical_or: result = (a != 0) | (b != 0); break;
    default: throw ModelError(expr.span, "unsupported operator");
  }
  return {result.to(at::kDouble), lhs.batched || rhs.batched, false};
}

// c ? a : b picks elementwise; gradients flow through the branch picked.
Evaluator::Result Evaluator::conditional(const Expr& expr) {
  const Result condition = visit(expr.operands[0]);
  const Result if_true = visit(expr.operands[1]);
  const Result if_false = visit(expr.operands[2]);
  const Value* values[] = {&condition.value, &if_true.value, &if_false.value};
  if (checking_) {
    try {
      broadcast_shapes(broadcast_shapes(values[0]->point_shape(), values[1]->point_shape()), values[2]->point_shape());
    } catch (const ArgumentError&) {
      throw ModelError(expr.span, "shapes " + variate::to_string(values[0]->point_shape()) + ", " +
                                      variate::to_string(values[1]->point_shape()) + " and " +
                                      variate::to_string(values[2]->point_shape()) + " do not broadcast in " + quoted(expr));
    }
  }
  int64_t rank = 0;
  bool batched = false;
  for (const Value* v : values) {
    rank = std::max(rank, v->rank());
    batched = batched || v->batched;
  }
  const bool integers = if_true.value.integer && if_false.value.integer;
  at::Tensor a = lift(if_true.value, rank);
  at::Tensor b = lift(if_false.value, rank);
  if (!integers) {
    const at::ScalarType type = at::promote_types(floating(a).scalar_type(), floating(b).scalar_type());
    a = a.to(type);
    b = b.to(type);
  }
  const at::Tensor picked = at::where(lift(condition.value, rank) != 0, a, b);
  return {{picked, batched, integers}, condition.constant && if_true.constant && if_false.constant};
}

// NAME[i, ...] inside NAME's own recurrence: element i of those made so far (the checker
// allows only earlier ones), then the other items on it.
Evaluator::Result Evaluator::element_read(const Expr& expr) {
  const Value position = visit(expr.operands[1]).value;
  const int64_t i = position.tensor.item<int64_t>();
  const Value& element = recurrence_->elements.at(static_cast<size_t>(i - 1));
  if (expr.operands.size() == 2) return {element, false};
  bool constant = false;
  const std::vector<Value> items = index_items(expr, 2, constant);
  // The items were visited in place (the constant cache is keyed by their addresses); the
  // copy without the first item only names them in index()'s messages.
  Expr rest = expr;
  rest.operands.erase(rest.operands.begin() + 1);
  return {index(rest, element, items), false};
}

Value Evaluator::evaluate_recurrence(const std::vector<const ElementDefinition*>& statements) {
  Recurrence recurrence;
  recurrence.name = &statements.front()->name;
  Recurrence* const outer = recurrence_;
  recurrence_ = &recurrence;
  struct Restore {
    Evaluator& evaluator;
    Recurrence* outer;
    ~Restore() { evaluator.recurrence_ = outer; }
  } restore{*this, outer};
  const auto add = [&](const ElementDefinition& element) {
    Value value = visit(element.value).value;
    if (checking_ && !recurrence.elements.empty() && value.point_shape() != recurrence.elements.front().point_shape()) {
      throw ModelError(element.value.span, "element " + std::to_string(recurrence.elements.size() + 1) + " of '" +
                                               element.name + "' has shape " + variate::to_string(value.point_shape()) +
                                               " but element 1 has shape " +
                                               variate::to_string(recurrence.elements.front().point_shape()));
    }
    recurrence.elements.push_back(std::move(value));
  };
  for (const ElementDefinition* element : statements) {
    if (!element->loop) {
      add(*element);
      continue;
    }
    const auto& loop = *element->loop;
    const int64_t lo = static_cast<int64_t>(recurrence.elements.size()) + 1;
    const Value hi_value = visit(loop.hi).value;
    if (!hi_value.integer || hi_value.rank() != 0 || hi_value.batched) {
      throw ModelError(loop.hi.span, "the end of the range of '" + loop.variable + "' must be an integer from the data");
    }
    const int64_t hi = hi_value.tensor.item<int64_t>();
    if (hi < lo - 1) {
      throw ModelError(loop.hi.span, "the range " + std::to_string(lo) + ":" + std::to_string(hi) + " of '" +
                                         loop.variable + "' ends before it starts; its end must be at least " +
                                         std::to_string(lo - 1) + " (the number of initial elements)");
    }
    recurrence.variable = &loop.variable;
    for (int64_t t = lo; t <= hi; ++t) {
      recurrence.position = {at::scalar_tensor(t, at::kLong), false, true};
      add(*element);
    }
    recurrence.variable = nullptr;
  }
  return stack_points(recurrence.elements);
}

}  // namespace variate::model
