#include "engine/distributed/shardable_rows.h"

#include <ATen/ATen.h>

#include <map>
#include <set>

#include "engine/core/argument_error.h"
#include "engine/model/distribution_table.h"
#include "engine/model/functions.h"
#include "engine/model/model_error.h"
#include "engine/model/ode_call.h"
#include "engine/model/printer.h"

namespace variate::distributed {
namespace {

using model::Expr;
using model::ExprKind;
using model::ModelError;

enum class Rows { none, split };  // whether an expression's value has the N rows

std::string quoted(const Expr& e) { return "'" + model::to_string(e) + "'"; }

// Classifies the expressions of one likelihood with N rows; values are evaluated at a
// reference point to learn their shapes.
class Analysis {
 public:
  Analysis(const model::CompiledModel& model, const std::map<std::string, model::Value>& environment,
           int64_t n, std::string owner)
      : model_(model), checked_(model.checked()), environment_(environment), n_(n), owner_(std::move(owner)) {}

  void likelihood(const Expr& call, int64_t batch_rank) {
    const model::DistributionSignature& signature = *model::find_distribution(call.name);
    const model::BoundArguments bound = *model::bind_arguments(signature, call);
    const auto& parameters = signature.parameterizations[bound.parameterization];
    for (size_t p = 0; p < parameters.size(); ++p) {
      const Expr& argument = call.arguments[bound.argument_of_parameter[p]].value;
      if (parameters[p].is_distribution) {  // a Mixture's component: its arguments gain the component axis
        likelihood(argument, batch_rank + 1);
        continue;
      }
      if (rows(argument) == Rows::split) continue;
      const int64_t argument_batch_rank = rank(argument) - parameters[p].event_rank;
      if (argument_batch_rank >= batch_rank) {
        throw ModelError(argument.span, quoted(argument) + " has shape " + variate::to_string(shape(argument)) +
                                            ", one value per row of '" + owner_ +
                                            "', but is not data: rows that share parameters of their own cannot be split between processes");
      }
    }
  }

  const std::set<std::string>& row_values() const { return row_values_; }
  const std::set<std::string>& row_nodes() const { return row_nodes_; }

 private:
  Rows rows(const Expr& e) {
    switch (e.kind) {
      case ExprKind::number:
      case ExprKind::full_slice:
        return Rows::none;
      case ExprKind::name:
        return name(e);
      case ExprKind::negate:
        return rows(e.operands[0]);
      case ExprKind::binary:
        return binary(e);
      case ExprKind::call: {
        const bool ode = model::is_ode_call(e);                       // its first argument names a function
        if (!ode && !e.operands.empty()) return rows(e.operands[0]);  // a user function, inlined
        bool any = false;
        for (size_t i = ode ? 1 : 0; i < e.arguments.size(); ++i)
          any = rows(e.arguments[i].value) == Rows::split || any;
        if (!any) return Rows::none;
        if (model::is_elementwise_function(e.name)) return Rows::split;
        throw ModelError(e.span, quoted(e) + " combines the rows of '" + owner_ + "'");
      }
      case ExprKind::index:
        return index(e);
      case ExprKind::density: {  // elementwise in the point and the arguments
        bool any = rows(e.operands[1]) == Rows::split;
        for (const auto& argument : e.operands[0].arguments) any = rows(argument.value) == Rows::split || any;
        return any ? Rows::split : Rows::none;
      }
      case ExprKind::range:
        for (const auto& operand : e.operands) {
          if (rows(operand) == Rows::split) throw ModelError(e.span, quoted(e) + ": a range cannot come from rows");
        }
        return Rows::none;
      case ExprKind::vector:
      case ExprKind::conditional:
      case ExprKind::logical_not:
        for (const auto& operand : e.operands) {
          if (rows(operand) == Rows::split) {
            throw ModelError(e.span, quoted(e) + " reads the rows of '" + owner_ + "', which it is not split along");
          }
        }
        return Rows::none;
    }
    return Rows::none;
  }

  Rows name(const Expr& e) {
    const model::Node& node = *checked_.find(e.name);
    if (node.is_data_valued()) {
      const model::Value& value = model_.data_values().at(e.name);
      if (value.rank() >= 1 && value.tensor.size(0) == n_) {
        row_values_.insert(e.name);
        return Rows::split;
      }
      return Rows::none;
    }
    if (node.kind != model::NodeKind::derived) return Rows::none;  // a parameter
    if (const auto known = derived_.find(e.name); known != derived_.end()) return known->second;
    const auto& assignment = *checked_.program.statements[*node.assignment].as<model::Deterministic>();
    const Rows result = rows(assignment.value);
    derived_[e.name] = result;
    if (result == Rows::split) row_nodes_.insert(e.name);
    return result;
  }

  Rows binary(const Expr& e) {
    const Expr& a = e.operands[0];
    const Expr& b = e.operands[1];
    const Rows ra = rows(a);
    const Rows rb = rows(b);
    if (ra == Rows::none && rb == Rows::none) return Rows::none;
    if (e.op == model::BinaryOp::matmul) {
      if (ra == Rows::split && rb == Rows::none) return Rows::split;
      throw ModelError(e.span, quoted(e) + ": rows can only be multiplied from the right, by a value without rows");
    }
    if (ra == Rows::split && rb == Rows::split) return Rows::split;
    const Expr& plain = ra == Rows::none ? a : b;
    const Expr& split = ra == Rows::none ? b : a;
    if (rank(plain) >= rank(split)) {
      throw ModelError(plain.span, quoted(plain) + " has shape " + variate::to_string(shape(plain)) +
                                       ", one value per row of '" + owner_ +
                                       "', but is not data: rows that share parameters of their own cannot be split between processes");
    }
    return Rows::split;
  }

  Rows index(const Expr& e) {
    const Rows base = rows(e.operands[0]);
    std::vector<Rows> items;
    for (size_t i = 1; i < e.operands.size(); ++i) items.push_back(rows(e.operands[i]));
    const bool items_split = std::count(items.begin(), items.end(), Rows::split) > 0;
    if (base == Rows::none && !items_split) return Rows::none;
    if (base == Rows::none && items.size() == 1) return Rows::split;  // a[county_idx]
    if (base == Rows::split && !items_split && e.operands[1].kind == ExprKind::full_slice) {
      return Rows::split;  // X[:, k]
    }
    throw ModelError(e.span, quoted(e) + " picks among the rows of '" + owner_ + "'");
  }

  Shape shape(const Expr& e) const { return model_.evaluate(e, environment_).point_shape(); }
  int64_t rank(const Expr& e) const { return static_cast<int64_t>(shape(e).size()); }

  const model::CompiledModel& model_;
  const model::CheckedModel& checked_;
  const std::map<std::string, model::Value>& environment_;
  int64_t n_;
  std::string owner_;
  std::map<std::string, Rows> derived_;
  std::set<std::string> row_values_;
  std::set<std::string> row_nodes_;
};

// Parameters at the image of the unconstrained zero vector, and the derived quantities
// there: what the shapes of expressions are learned from.
std::map<std::string, model::Value> reference_values(const model::CompiledModel& model) {
  std::map<std::string, model::Value> environment;
  const at::Tensor zero = at::zeros({model.layout().dimension()}, at::kDouble);
  for (const auto& [name, value] : model.layout().constrain(zero).values) {
    environment[name] = model::Value{value.to(model.options().dtype), false, false};
  }
  const model::CheckedModel& checked = model.checked();
  for (size_t s : checked.evaluation_order) {
    const auto* assignment = checked.program.statements[s].as<model::Deterministic>();
    if (!assignment || checked.find(assignment->name)->is_data_valued()) continue;
    environment[assignment->name] = model.evaluate(assignment->value, environment);
  }
  return environment;
}

// Every name an expression reads, with where.
void references(const Expr& e, std::vector<std::pair<std::string, model::Span>>& out) {
  if (e.kind == ExprKind::name) out.emplace_back(e.name, e.span);
  for (const auto& operand : e.operands) references(operand, out);
  for (const auto& argument : e.arguments) references(argument.value, out);
}

}  // namespace

// Recurrences chain rows together, and `target +=` terms and truncations are not analysed
// row by row: a model with one is evaluated whole.
void reject_unsplittable(const model::CheckedModel& checked) {
  const std::string advice = " (run with --shard none to evaluate the model whole on every process)";
  for (const auto& statement : checked.program.statements) {
    if (statement.kind() == model::StatementKind::element) {
      throw ModelError(statement.name_span(), "'" + statement.name() + "' is a recurrence: its elements depend on earlier "
                                              "ones, so rows cannot be split between processes" + advice);
    }
    if (statement.kind() == model::StatementKind::target) {
      throw ModelError(statement.name_span(), "'target +=' terms are not split between processes" + advice);
    }
    const auto* random = statement.as<model::RandomStmt>();
    if (random && random->truncation) {
      throw ModelError(random->truncation->span, "truncated likelihoods are not split between processes" + advice);
    }
  }
}

std::vector<ShardedStatement> find_shardable_rows(const model::CompiledModel& model) {
  const model::CheckedModel& checked = model.checked();
  reject_unsplittable(checked);
  const auto environment = reference_values(model);
  std::vector<ShardedStatement> result;
  std::map<std::string, std::pair<int64_t, std::string>> cut;  // row value -> (N, owner)
  std::set<std::string> feeding;  // derived quantities computed from rows
  for (size_t s = 0; s < checked.program.statements.size(); ++s) {
    const auto* random = checked.program.statements[s].as<model::RandomStmt>();
    if (!random || checked.find(random->name)->kind != model::NodeKind::observed) continue;
    const model::Value& value = model.data_values().at(random->name);
    const int64_t event_rank = model::find_distribution(random->distribution.name)->event_rank;
    if (value.rank() <= event_rank) continue;  // no rows: evaluated whole
    const int64_t n = value.tensor.size(0);
    Analysis analysis(model, environment, n, random->name);
    analysis.likelihood(random->distribution, value.rank() - event_rank);
    ShardedStatement statement{s, random->name, n, {random->name},
                               {analysis.row_nodes().begin(), analysis.row_nodes().end()}};
    for (const auto& name : analysis.row_values()) {
      if (name != random->name) statement.row_values.push_back(name);
    }
    for (const auto& name : statement.row_values) {
      const auto [it, fresh] = cut.emplace(name, std::make_pair(n, random->name));
      if (!fresh && it->second.first != n) {
        throw ModelError(random->distribution.span,
                         "'" + name + "' has " + std::to_string(it->second.first) + " rows for '" + it->second.second +
                             "' but is read as " + std::to_string(n) + " rows here");
      }
    }
    feeding.insert(analysis.row_nodes().begin(), analysis.row_nodes().end());
    result.push_back(std::move(statement));
  }
  if (result.empty()) {
    throw ArgumentError("the model has no likelihood with rows to split between processes (run it on one, or with --shard none)");
  }
  // Values with rows are read by the split likelihoods alone (and what feeds them).
  std::set<size_t> split;
  for (const auto& statement : result) split.insert(statement.statement);
  for (size_t s = 0; s < checked.program.statements.size(); ++s) {
    const model::Statement& statement = checked.program.statements[s];
    if (split.count(s) || statement.kind() == model::StatementKind::data ||
        statement.kind() == model::StatementKind::function) {
      continue;
    }
    if (checked.find(statement.name())->is_data_valued()) continue;  // computed from the whole data
    if (feeding.count(statement.name())) continue;
    std::vector<std::pair<std::string, model::Span>> names;
    if (const auto* random = statement.as<model::RandomStmt>()) {
      references(random->distribution, names);
      for (const auto& dim : random->dims) references(dim, names);
    } else if (const auto* assignment = statement.as<model::Deterministic>()) {
      references(assignment->value, names);
    }
    for (const auto& [name, span] : names) {
      const auto it = cut.find(name);
      const bool derived = feeding.count(name) > 0;
      if (it == cut.end() && !derived) continue;
      const std::string owner = it != cut.end() ? it->second.second : "its likelihood";
      throw ModelError(span, "'" + name + "' is read here, outside the likelihood of '" + owner +
                                 "' whose rows are split between processes (run with --shard none to evaluate the model whole on every process)");
    }
  }
  return result;
}

}  // namespace variate::distributed
