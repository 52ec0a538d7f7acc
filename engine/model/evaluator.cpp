#include "variate/model/evaluator.h"

#include <ATen/ATen.h>

#include "variate/model/functions.h"
#include "variate/model/model_error.h"
#include "variate/model/printer.h"

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
      std::vector<Value> arguments;
      bool constant = true;
      for (const auto& argument : expr.arguments) {
        Result r = visit(argument.value);
        constant = constant && r.constant;
        arguments.push_back(std::move(r.value));
      }
      return {call_function(expr, arguments, checking_), constant};
    }
    case ExprKind::index: {
      const Result base = visit(expr.operands[0]);
      std::vector<Value> items;
      bool constant = base.constant;
      for (size_t i = 1; i < expr.operands.size(); ++i) {
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
      return {index(expr, base.value, items), constant};
    }
    case ExprKind::full_slice:
    case ExprKind::range:
      throw ModelError(expr.span, "':' is only allowed inside an index, as in X[:, 2]");
  }
  throw ModelError(expr.span, "unsupported expression");
}

Value Evaluator::binary(const Expr& expr, const Value& lhs, const Value& rhs) {
  if (expr.op == BinaryOp::matmul) return matmul(expr, lhs, rhs);
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
    case BinaryOp::matmul: break;
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
