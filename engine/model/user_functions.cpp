#include "engine/model/user_functions.h"

#include <map>
#include <string>

#include "engine/model/ode_call.h"

namespace variate::model {
namespace {

class Inliner {
 public:
  explicit Inliner(const Program& program) {
    for (const Statement& statement : program.statements) {
      if (const auto* function = statement.as<FunctionDecl>()) functions_[function->name] = function;
    }
  }

  bool empty() const { return functions_.empty(); }

  void expand(Expr& e) const {
    if (e.kind == ExprKind::call && !e.operands.empty()) return;  // inlined already
    for (Expr& operand : e.operands) expand(operand);
    for (Argument& argument : e.arguments) expand(argument.value);
    if (e.kind != ExprKind::call) return;
    if (is_ode_call(e)) return attach_right_hand_side(e);
    const auto found = functions_.find(e.name);
    if (found == functions_.end()) return;
    const FunctionDecl& function = *found->second;
    std::map<std::string, const Expr*> arguments;
    for (size_t i = 0; i < function.parameters.size(); ++i) {
      arguments[function.parameters[i].name] = &e.arguments[i].value;
      e.types.push_back(function.parameters[i].type);
    }
    e.types.push_back(function.result);
    Expr body = substitute(function.body, arguments);
    expand(body);  // the calls in the body
    e.operands = {std::move(body)};
  }

  // An ODE call gets its right-hand side's body, the arguments renamed as ode_call.h says.
  void attach_right_hand_side(Expr& e) const {
    const FunctionDecl& function = *functions_.at(e.arguments[0].value.name);
    std::vector<Expr> renamed;
    std::map<std::string, const Expr*> arguments;
    renamed.reserve(function.parameters.size());
    for (size_t k = 0; k < function.parameters.size(); ++k) {
      renamed.push_back(Expr::identifier(ode_argument_name(k), function.parameters[k].span));
      e.types.push_back(function.parameters[k].type);
    }
    for (size_t k = 0; k < function.parameters.size(); ++k) arguments[function.parameters[k].name] = &renamed[k];
    e.types.push_back(function.result);
    Expr body = substitute(function.body, arguments);
    expand(body);
    e.operands = {std::move(body)};
  }

  void expand(std::optional<Expr>& e) const {
    if (e) expand(*e);
  }

  void expand(std::vector<Expr>& list) const {
    for (Expr& e : list) expand(e);
  }

 private:
  // `body` with each parameter's name replaced by its argument.
  static Expr substitute(const Expr& body, const std::map<std::string, const Expr*>& arguments) {
    if (body.kind == ExprKind::name) {
      if (const auto found = arguments.find(body.name); found != arguments.end()) return *found->second;
    }
    Expr copy = body;
    for (Expr& operand : copy.operands) operand = substitute(operand, arguments);
    for (Argument& argument : copy.arguments) argument.value = substitute(argument.value, arguments);
    return copy;
  }

  std::map<std::string, const FunctionDecl*> functions_;
};

}  // namespace

void inline_user_functions(Program& program) {
  const Inliner inliner(program);
  if (inliner.empty()) return;
  for (Statement& statement : program.statements) {
    if (auto* data = std::get_if<DataDecl>(&statement.node)) {
      inliner.expand(data->dims);
      inliner.expand(data->lower);
      inliner.expand(data->upper);
    } else if (auto* random = std::get_if<RandomStmt>(&statement.node)) {
      inliner.expand(random->dims);
      inliner.expand(random->constraint_dims);
      inliner.expand(random->distribution);
      if (random->truncation) {
        inliner.expand(random->truncation->lo);
        inliner.expand(random->truncation->hi);
      }
      if (random->bounds) {
        inliner.expand(random->bounds->lower);
        inliner.expand(random->bounds->upper);
      }
    } else if (auto* deterministic = std::get_if<Deterministic>(&statement.node)) {
      inliner.expand(deterministic->value);
    } else if (auto* element = std::get_if<ElementDefinition>(&statement.node)) {
      inliner.expand(element->value);
      if (element->loop) {
        inliner.expand(element->loop->lo);
        inliner.expand(element->loop->hi);
      }
    } else if (auto* target = std::get_if<TargetIncrement>(&statement.node)) {
      inliner.expand(target->value);
    }
  }
}

}  // namespace variate::model
