#pragma once
/// Evaluates model expressions on tensors, for one point or a batch of points. While a
/// model is being checked it validates shapes and indices with located messages and
/// remembers the value of every expression that depends on data only, so that later
/// evaluations (the sampler's hot path) reuse them.

#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "engine/model/ast.h"
#include "engine/model/value.h"

namespace variate::model {

/// Values of data-only expressions, filled while checking and read-only afterwards (so
/// chains on several threads can share it).
using ConstantCache = std::unordered_map<const Expr*, Value>;

class Evaluator {
 public:
  /// `data_names`: names whose values do not depend on parameters. Names are looked up in
  /// `environment`, then in `outer` if given (the bound data, shared without a copy).
  Evaluator(const std::map<std::string, Value>& environment, const std::set<std::string>& data_names,
            ConstantCache& constants, bool checking,
            const std::map<std::string, Value>* outer = nullptr);

  /// @throws ModelError pointing at the offending subexpression.
  Value evaluate(const Expr& expr);

  /// Evaluates a recurrence (checker.h: Node::elements): each initial element, then the
  /// step for each position, the step's variable bound to it and `NAME[i]` reading the
  /// elements made so far; the elements stacked along a new first dimension.
  /// @throws ModelError for a range that ends before the step starts, or elements whose
  /// shapes differ.
  Value evaluate_recurrence(const std::vector<const ElementDefinition*>& statements);

 private:
  struct Result {
    Value value;
    bool constant;
  };
  Result visit(const Expr& expr);
  Result visit_uncached(const Expr& expr);
  Value binary(const Expr& expr, const Value& lhs, const Value& rhs);
  Value matmul(const Expr& expr, const Value& lhs, const Value& rhs);
  Value index(const Expr& expr, const Value& base, const std::vector<Value>& items);
  /// The values of an index's items from operand `first` on (':' as an empty value, a
  /// range as [lo, hi]); `constant` is and-ed with theirs.
  std::vector<Value> index_items(const Expr& expr, size_t first, bool& constant);
  Result vector(const Expr& expr);
  Value compare(const Expr& expr, const Value& lhs, const Value& rhs);
  Result conditional(const Expr& expr);
  Result density(const Expr& expr);
  Result user_call(const Expr& expr);
  Result ode_call(const Expr& expr);
  Result element_read(const Expr& expr);

  // The recurrence being evaluated: its name, elements so far and the step's variable.
  struct Recurrence {
    const std::string* name = nullptr;
    std::vector<Value> elements;
    const std::string* variable = nullptr;
    Value position;
  };
  Recurrence* recurrence_ = nullptr;

  const std::map<std::string, Value>& environment_;
  const std::map<std::string, Value>* outer_;
  const std::set<std::string>& data_names_;
  ConstantCache& constants_;
  bool checking_;
};

}  // namespace variate::model
