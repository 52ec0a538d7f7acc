#include "engine/model/variable_bounds.h"

#include "engine/bijectors/describe_bound.h"
#include "engine/model/distribution_table.h"
#include "engine/model/printer.h"

namespace variate::model {

BoundExpressions bound_expressions(const RandomStmt& random) {
  const auto pointer = [](const std::optional<Expr>& e) { return e ? &*e : nullptr; };
  if (random.bounds) return {pointer(random.bounds->lower), pointer(random.bounds->upper)};
  if (random.truncation) return {pointer(random.truncation->lo), pointer(random.truncation->hi)};
  if (random.distribution.kind != ExprKind::call || random.distribution.name != "Uniform") return {};
  const DistributionSignature& signature = *find_distribution("Uniform");
  const auto bound = bind_arguments(signature, random.distribution);
  if (!bound) return {};
  return {&random.distribution.arguments[bound->argument_of_parameter[0]].value,
          &random.distribution.arguments[bound->argument_of_parameter[1]].value};
}

std::string describe_bounds(const RandomStmt& random, const Support& support) {
  const BoundExpressions bounds = bound_expressions(random);
  const auto side = [](const Expr* e, const at::Tensor& own) {
    return e ? to_string(*e) : own.defined() ? bijectors::describe_bound(own) : std::string("?");
  };
  switch (support.kind()) {
    case Support::Kind::LowerBounded: return "lower_bounded(" + side(bounds.lower, support.lower()) + ")";
    case Support::Kind::UpperBounded: return "upper_bounded(" + side(bounds.upper, support.upper()) + ")";
    case Support::Kind::Interval:
      return "interval(" + side(bounds.lower, support.lower()) + ", " + side(bounds.upper, support.upper()) + ")";
    default: return support.to_string();
  }
}

}  // namespace variate::model
