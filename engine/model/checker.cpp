#include "engine/model/checker.h"
#include "engine/model/closest_name.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <queue>
#include <set>

#include "engine/model/distribution_support.h"
#include "engine/model/distribution_table.h"
#include "engine/model/functions.h"
#include "engine/model/network_call.h"
#include "engine/model/ode_call.h"
#include "engine/model/printer.h"
#include "engine/model/user_functions.h"

namespace variate::model {
namespace {

// Where a name is read: its value, or a size/index that must come from the data.
enum class Use { value, size, index, bound };  // bound: of a data declaration

struct Reference {
  std::string name;
  Span span;
  Use use;
};

const std::set<std::string>& discrete_families() {
  static const std::set<std::string> names = {"Bernoulli", "Binomial", "Poisson",
                                              "NegBinomial2", "Categorical"};
  return names;
}

bool is_output_column_name(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, "__") == 0;
}

class Checker {
 public:
  Checker(CheckedModel& model, const Source& source, Diagnostics& diagnostics)
      : model_(model), source_(source), diagnostics_(diagnostics) {}

  void run() {
    collect_nodes();
    for (const Node& n : model_.nodes) {
      if (!n.elements.empty()) check_recurrence(n);
    }
    for (size_t s = 0; s < statements().size(); ++s) collect_references(s);
    check_recursion();
    if (diagnostics_.stopped()) return;
    check_undefined_names();
    order_statements();
    classify();
    check_uses();
  }

 private:
  const std::vector<Statement>& statements() const { return model_.program.statements; }

  Node& node(const std::string& name) {
    const auto it = model_.node_positions.find(name);
    if (it != model_.node_positions.end()) return model_.nodes[it->second];
    model_.node_positions[name] = model_.nodes.size();
    Node n;
    n.name = name;
    model_.nodes.push_back(std::move(n));
    return model_.nodes.back();
  }

  std::string where(size_t statement) const {
    return "line " + std::to_string(statement_lines_.at(statement));
  }

  void collect_nodes() {
    for (size_t s = 0; s < statements().size(); ++s) {
      const Statement& statement = statements()[s];
      statement_lines_[s] = line_of(statement.name_span());
      if (const auto* function = statement.as<FunctionDecl>()) {
        declare_function(s, *function);
        continue;
      }
      const bool first_use = !model_.node_positions.count(statement.name());
      Node& n = node(statement.name());
      if (first_use && is_output_column_name(n.name)) {
        // lp__, accept_stat__, energy__...: the draws' files already have such columns.
        diagnostics_.error(statement.name_span(), "'" + n.name + "' ends in '__', which names the sampler's own "
                           "columns (lp__, energy__, ...); rename it");
      }
      if (statement.kind() == StatementKind::element) {
        n.elements.push_back(s);
        continue;
      }
      std::optional<size_t>* slot = nullptr;
      const char* what = "";
      switch (statement.kind()) {
        case StatementKind::element:
        case StatementKind::function:
          break;
        case StatementKind::target: slot = &n.increment; what = "a log-density term"; break;
        case StatementKind::data: slot = &n.declaration; what = "declared as data"; break;
        case StatementKind::deterministic: slot = &n.assignment; what = "defined with '='"; break;
        case StatementKind::random:
          if (statement.as<RandomStmt>()->guide) {
            slot = &n.guide;
            what = "given a guide";
          } else {
            slot = &n.distribution;
            what = "given a distribution";
          }
          break;
      }
      if (*slot) {
        diagnostics_.error(statement.name_span(), "'" + n.name + "' is already " + what +
                                                      " (" + where(**slot) + ")");
        continue;
      }
      *slot = s;
      if (n.declaration && n.assignment) {
        diagnostics_.error(statement.name_span(),
                           "'" + n.name + "' is declared as data (" + where(*n.declaration) +
                               ") and also defined with '='; rename one of them");
      }
    }
    for (const auto& [name, s] : functions_) {
      if (const auto it = model_.node_positions.find(name); it != model_.node_positions.end()) {
        diagnostics_.error(statements()[s].name_span(), "'" + name +
                                                            "' names both a function and a node of the model; "
                                                            "rename one of them");
      }
    }
    for (const Node& n : model_.nodes) {
      if (n.elements.empty()) continue;
      const auto other = n.declaration ? n.declaration : n.assignment;
      if (!other) continue;
      diagnostics_.error(statements()[n.elements.front()].name_span(),
                         "'" + n.name + "' is " + (n.declaration ? "declared as data" : "defined with '='") +
                             " (" + where(*other) + ") and also defined element by element; rename one of them");
    }
  }

  void declare_function(size_t s, const FunctionDecl& function) {
    if (const auto it = functions_.find(function.name); it != functions_.end()) {
      diagnostics_.error(function.name_span,
                         "the function '" + function.name + "' is already declared (" + where(it->second) + ")");
      return;
    }
    if (is_function(function.name) || find_distribution(function.name) || function.name == "mlp") {
      diagnostics_.error(function.name_span, "'" + function.name +
                                                 "' is a function or distribution of the language; "
                                                 "name yours otherwise");
      return;
    }
    functions_[function.name] = s;
  }

  // A function may call others, never itself through them: inlining would not end.
  void check_recursion() {
    for (const auto& [name, s] : functions_) {
      std::vector<std::string> path{name};
      if (calls_back(name, name, path)) {
        std::string cycle;
        for (const auto& step : path) cycle += step + " -> ";
        diagnostics_.error(statements()[s].name_span(), "the function '" + name + "' calls itself (" + cycle + name +
                                                            "); a function cannot recurse");
        return;
      }
    }
  }

  bool calls_back(const std::string& from, const std::string& goal, std::vector<std::string>& path) const {
    const auto it = calls_.find(from);
    if (it == calls_.end()) return false;
    for (const auto& next : it->second) {
      if (next == goal) return true;
      if (std::find(path.begin(), path.end(), next) != path.end()) continue;
      path.push_back(next);
      if (calls_back(next, goal, path)) return true;
      path.pop_back();
    }
    return false;
  }

  // A user function's call: its arguments by position, as many as it declares.
  void check_user_call(size_t statement, const Expr& call, Use use, const FunctionDecl& function) {
    std::string signature;
    for (const auto& p : function.parameters) {
      signature += (signature.empty() ? "" : ", ") + p.name + ": " + value_type_name(p.type);
    }
    for (const auto& argument : call.arguments) {
      if (argument.is_named()) {
        diagnostics_.error(argument.name_span, "'" + call.name + "' takes its arguments by position (" + signature +
                                                   "); write '" + to_string(argument.value) + "' without '" +
                                                   argument.name + " ='");
        return;
      }
    }
    const size_t expected = function.parameters.size();
    if (call.arguments.size() != expected) {
      diagnostics_.error(call.span, "'" + call.name + "' takes " + std::to_string(expected) + " argument" +
                                        (expected == 1 ? "" : "s") + " (" + signature + "), got " +
                                        std::to_string(call.arguments.size()));
      return;
    }
    if (current_function_) calls_[current_function_->name].insert(call.name);
    for (const auto& argument : call.arguments) walk(statement, argument.value, use);
  }

  // `ode_rk45(f, y0, t0, ts, ...)`: f a user function of (t: real, y: vector, ...) whose
  // value is a vector, taking as many arguments as follow ts (or max_num_steps).
  void check_ode_call(size_t statement, const Expr& call, Use use, const OdeForm& form) {
    const std::string shape =
        form.tolerances ? "(f, y0, t0, ts, rel_tol, abs_tol, max_num_steps, ...)" : "(f, y0, t0, ts, ...)";
    for (const auto& argument : call.arguments) {
      if (argument.is_named()) {
        diagnostics_.error(argument.name_span, "'" + call.name + "' takes its arguments by position " + shape);
        return;
      }
    }
    if (call.arguments.size() < form.first_passed()) {
      diagnostics_.error(call.span, "'" + call.name + "' takes " + shape + ", got " +
                                        std::to_string(call.arguments.size()) + " argument" +
                                        (call.arguments.size() == 1 ? "" : "s"));
      return;
    }
    const Expr& f = call.arguments[0].value;
    const auto it = f.kind == ExprKind::name ? functions_.find(f.name) : functions_.end();
    if (it == functions_.end()) {
      diagnostics_.error(f.span, "the first argument of '" + call.name +
                                     "' is the right-hand side dy/dt: the name of a function declared as "
                                     "`function f(t: real, y: vector, ...): vector`");
      return;
    }
    const FunctionDecl& function = *statements()[it->second].as<FunctionDecl>();
    const auto& parameters = function.parameters;
    if (parameters.size() < 2 || parameters[0].type != ValueType::real || parameters[1].type != ValueType::vector ||
        function.result != ValueType::vector) {
      diagnostics_.error(f.span, "'" + f.name + "' is not a right-hand side dy/dt: declare it as `function " + f.name +
                                     "(t: real, y: vector, ...): vector`");
      return;
    }
    const size_t passed = call.arguments.size() - form.first_passed();
    if (parameters.size() != 2 + passed) {
      diagnostics_.error(call.span, "'" + f.name + "' takes " + std::to_string(parameters.size()) +
                                        " arguments, but '" + call.name + "' passes it t, y and the " +
                                        std::to_string(passed) + " argument" + (passed == 1 ? "" : "s") + " after " +
                                        (form.tolerances ? "max_num_steps" : "ts"));
      return;
    }
    if (current_function_) calls_[current_function_->name].insert(f.name);
    for (size_t i = 1; i < call.arguments.size(); ++i) walk(statement, call.arguments[i].value, use);
  }

  // A recurrence is its initial elements NAME[1], NAME[2], ... in order, then one step
  // `NAME[t] = ... for t in (m + 1):HI` over the rest.
  void check_recurrence(const Node& n) {
    size_t initials = 0;
    std::optional<size_t> step;
    for (size_t s : n.elements) {
      const auto& element = *statements()[s].as<ElementDefinition>();
      if (element.loop) {
        if (step) {
          diagnostics_.error(element.name_span, "'" + n.name + "' already has a step (" + where(*step) + ")");
        } else {
          step = s;
        }
        continue;
      }
      if (step) {
        diagnostics_.error(element.name_span, "the initial elements of '" + n.name + "' come before its step (" +
                                                  where(*step) + ")");
        continue;
      }
      const Expr& index = element.index;
      ++initials;
      if (index.kind != ExprKind::number || !index.is_integer || index.value != static_cast<double>(initials)) {
        diagnostics_.error(index.span, "the initial elements of '" + n.name + "' are numbered 1, 2, ... in order: expected '" +
                                           n.name + "[" + std::to_string(initials) + "]', got '" + n.name + "[" +
                                           to_string(index) + "]'");
      }
    }
    if (!step) {
      diagnostics_.error(statements()[n.elements.back()].name_span(),
                         "'" + n.name + "' has initial elements but no step, such as '" + n.name + "[t] = ... for t in " +
                             std::to_string(initials + 1) + ":T'");
      return;
    }
    const auto& element = *statements()[*step].as<ElementDefinition>();
    const auto& loop = *element.loop;
    step_initials_[*step] = initials;
    loop_variables_[loop.variable] = *step;
    if (initials == 0) {
      diagnostics_.error(element.name_span, "the recurrence '" + n.name + "' has no initial element: give '" + n.name +
                                                "[1] = ...' before its step");
      return;
    }
    if (element.index.kind != ExprKind::name || element.index.name != loop.variable) {
      diagnostics_.error(element.index.span, "the step of '" + n.name + "' defines '" + n.name + "[" + loop.variable +
                                                 "]', indexed by its variable '" + loop.variable + "'; got '" + n.name +
                                                 "[" + to_string(element.index) + "]'");
    }
    if (loop.lo.kind != ExprKind::number || !loop.lo.is_integer || loop.lo.value != static_cast<double>(initials + 1)) {
      diagnostics_.error(loop.lo.span, "the range of '" + loop.variable + "' must start right after the initial elements of '" +
                                           n.name + "': expected " + std::to_string(initials + 1) + ", got '" +
                                           to_string(loop.lo) + "'");
    }
    if (model_.node_positions.count(loop.variable)) {
      diagnostics_.error(loop.variable_span, "the index '" + loop.variable +
                                                 "' is also a name in the model; choose another");
    }
  }

  // Inside a recurrence's statement, its own name is read element by element, earlier
  // elements only: `NAME[q]` (q a literal before the initial element's position) or, in the
  // step, `NAME[t - k]` with 1 <= k <= the number of initial elements.
  void check_own_read(const Expr& e) {
    const ElementDefinition& element = *current_element_;
    const Expr& item = e.operands.size() > 1 ? e.operands[1] : e;
    const std::string read = "'" + to_string(e) + "'";
    if (!element.loop) {
      const double position = element.index.kind == ExprKind::number ? element.index.value : 0;
      if (item.kind != ExprKind::number || !item.is_integer || item.value >= position) {
        diagnostics_.error(e.span, "'" + element.name + "[" + to_string(element.index) +
                                       "]' may read only earlier elements of '" + element.name + "'; got " + read);
      }
      return;
    }
    const std::string& t = element.loop->variable;
    const bool back = item.kind == ExprKind::binary && item.op == BinaryOp::subtract &&
                      item.operands[0].kind == ExprKind::name && item.operands[0].name == t &&
                      item.operands[1].kind == ExprKind::number && item.operands[1].is_integer &&
                      item.operands[1].value >= 1;
    if (!back) {
      diagnostics_.error(e.span, "the step of '" + element.name + "' may read only earlier elements, as in '" +
                                     element.name + "[" + t + " - 1]'; got " + read);
      return;
    }
    if (item.operands[1].value > static_cast<double>(current_initials_)) {
      diagnostics_.error(e.span, read + " reads before the first element when " + t + " = " +
                                     std::to_string(current_initials_ + 1) + ": the step may read back at most " +
                                     std::to_string(current_initials_) + " (the number of initial elements)");
    }
  }

  size_t line_of(Span span) const { return source_.location(span.begin).line; }

  void add_reference(size_t statement, const std::string& name, Span span, Use use) {
    references_[statement].push_back({name, span, use});
  }

  void walk(size_t statement, const Expr& e, Use use) {
    switch (e.kind) {
      case ExprKind::number:
      case ExprKind::full_slice:
        return;
      case ExprKind::name:
        if (current_function_) {
          check_function_read(e);
          return;
        }
        if (current_element_ && current_element_->loop && e.name == current_element_->loop->variable) return;
        if (current_element_ && e.name == current_element_->name) {
          diagnostics_.error(e.span, "'" + e.name + "' is read whole inside its own definition; read an earlier "
                                     "element, as in '" + e.name + "[t - 1]'");
          return;
        }
        add_reference(statement, e.name, e.span, use);
        return;
      case ExprKind::negate:
      case ExprKind::logical_not:
      case ExprKind::binary:
      case ExprKind::range:
      case ExprKind::vector:
      case ExprKind::conditional:
        for (const auto& operand : e.operands) walk(statement, operand, use);
        return;
      case ExprKind::index:
        if (current_element_ && e.operands[0].kind == ExprKind::name && e.operands[0].name == current_element_->name) {
          check_own_read(e);
          for (size_t i = 2; i < e.operands.size(); ++i) walk(statement, e.operands[i], Use::index);
          return;
        }
        walk(statement, e.operands[0], use);
        for (size_t i = 1; i < e.operands.size(); ++i) walk(statement, e.operands[i], Use::index);
        return;
      case ExprKind::call:
        if (is_network_call(e)) {
          diagnostics_.error(e.span, "mlp(...) declares a network: give it a statement of its own, as in "
                                     "`h = mlp(x, 400, 20)`, and use its name here");
          return;
        }
        check_function_call(statement, e, use);
        return;
      case ExprKind::density:
        check_density_call(statement, e, use);
        return;
    }
  }

  // `Normal(mu, sigma).log_prob(x)`: the parser has reported a method that is none, or a
  // receiver that is no call.
  void check_density_call(size_t statement, const Expr& e, Use use) {
    const Expr& call = e.operands[0];
    if (call.kind == ExprKind::call && find_distribution(call.name) && e.name != "log_prob" &&
        !can_truncate(call.name)) {
      diagnostics_.error(e.span, call.name + " has no " + e.name +
                                     ": it has no cumulative distribution function here (" + e.name + " is there for " +
                                     truncatable_families() + ")");
    }
    if (call.kind == ExprKind::call && !find_distribution(call.name) && is_function(call.name)) {
      diagnostics_.error(call.span, "'" + call.name + "' is a function; '." + e.name +
                                        "' follows a distribution, as in Normal(mu, sigma)." + e.name + "(x)");
      return;
    }
    if (call.kind == ExprKind::call && call.name == "Mixture") {
      diagnostics_.error(e.span, "a Mixture's " + e.name +
                                     " cannot be taken in an expression; write the log_sum_exp "
                                     "of each component's log weight plus its log_prob");
      return;
    }
    if (call.kind == ExprKind::call) {
      check_distribution_call(statement, call, false);
    } else {
      walk(statement, call, use);
    }
    walk(statement, e.operands[1], use);
  }

  // A name in a function's body is one of its arguments.
  void check_function_read(const Expr& e) {
    for (const auto& p : current_function_->parameters) {
      if (p.name == e.name) return;
    }
    diagnostics_.error(e.span, "'" + e.name + "' is not an argument of '" + current_function_->name +
                                   "': a function reads only its arguments; pass '" + e.name + "' as one");
  }

  void check_network(size_t statement, const Expr& call) {
    if (const auto network = read_network_call(call, diagnostics_)) walk(statement, *network->input, Use::value);
  }

  void check_function_call(size_t statement, const Expr& call, Use use) {
    if (const auto form = ode_form(call.name)) {
      check_ode_call(statement, call, use, *form);
      return;
    }
    if (const auto it = functions_.find(call.name); it != functions_.end()) {
      check_user_call(statement, call, use, *statements()[it->second].as<FunctionDecl>());
      return;
    }
    if (find_distribution(call.name)) {
      diagnostics_.error(call.span, "'" + call.name +
                                        "' is a distribution; distributions follow '~' (or are "
                                        "the component of a Mixture)");
      return;
    }
    if (!is_function(call.name)) {
      std::string message = "unknown function '" + call.name + "'";
      const std::string guess = closest_name(call.name, function_names());
      if (!guess.empty()) message += "; did you mean '" + guess + "'?";
      diagnostics_.error(call.span, message);
      return;
    }
    for (const auto& argument : call.arguments) walk(statement, argument.value, use);
  }

  void check_distribution_call(size_t statement, const Expr& call, bool component) {
    if (call.kind != ExprKind::call) {
      diagnostics_.error(call.span, component ? "the component of a Mixture must be a distribution, such as Normal(mu, sigma)"
                                              : "expected a distribution after '~', such as Normal(0, 1)");
      if (!component) walk(statement, call, Use::value);
      return;
    }
    const DistributionSignature* signature = find_distribution(call.name);
    if (!signature) {
      std::string message = "unknown distribution '" + call.name + "'";
      const std::string guess = closest_name(call.name, distribution_names());
      if (!guess.empty()) message += "; did you mean '" + guess + "'?";
      diagnostics_.error(call.span, message);
      return;
    }
    if (component && call.name == "Mixture") {
      diagnostics_.error(call.span, "a Mixture's component cannot itself be a Mixture");
      return;
    }
    const auto bound = bind_arguments(*signature, call);
    if (!bound) {
      report_argument_mismatch(*signature, call);
      return;
    }
    const auto& parameters = signature->parameterizations[bound->parameterization];
    for (size_t p = 0; p < parameters.size(); ++p) {
      const Expr& argument = call.arguments[bound->argument_of_parameter[p]].value;
      if (parameters[p].is_distribution) {
        check_distribution_call(statement, argument, true);
      } else {
        walk(statement, argument, Use::value);
      }
    }
  }

  // Reports why no parameterization of `signature` fits `call`.
  void report_argument_mismatch(const DistributionSignature& signature, const Expr& call) {
    for (const auto& argument : call.arguments) {
      if (!argument.is_named()) continue;
      bool known = false;
      for (const auto& parameters : signature.parameterizations) {
        for (const auto& p : parameters) known |= argument.name == p.name;
      }
      if (!known) {
        diagnostics_.error(argument.name_span, call.name + " has no argument named '" +
                                                   argument.name + "'; expected " +
                                                   describe(signature));
        return;
      }
    }
    const size_t expected = signature.parameterizations[0].size();
    diagnostics_.error(call.span, call.name + " takes " + std::to_string(expected) +
                                      " argument" + (expected == 1 ? "" : "s") + " (" +
                                      describe(signature) + "), got " +
                                      std::to_string(call.arguments.size()));
  }

  void check_truncation(size_t s, const RandomStmt& random) {
    const Truncation& truncation = *random.truncation;
    for (const auto* bound : {&truncation.lo, &truncation.hi}) {
      if (*bound) walk(s, **bound, Use::value);
    }
    if (random.distribution.kind != ExprKind::call || !find_distribution(random.distribution.name)) return;
    const std::string& family = random.distribution.name;
    if (!can_truncate(family)) {
      diagnostics_.error(truncation.span, family + " cannot be truncated: it has no cumulative distribution function "
                                                   "here (truncatable: " + truncatable_families() + ")");
    }
    if (random.constraint != Constraint::none) {
      diagnostics_.error(truncation.span, "'" + random.name + "' has both a constraint type and a truncation; "
                                                               "the truncation sets its support");
    }
  }

  void collect_references(size_t s) {
    const Statement& statement = statements()[s];
    if (const auto* function = statement.as<FunctionDecl>()) {
      current_function_ = function;
      walk(s, function->body, Use::value);
      current_function_ = nullptr;
      return;
    }
    if (const auto* element = statement.as<ElementDefinition>()) {
      current_element_ = element;
      current_initials_ = step_initials_.count(s) ? step_initials_.at(s) : 0;
      walk(s, element->value, Use::value);
      current_element_ = nullptr;
      if (element->loop) {
        walk(s, element->loop->lo, Use::size);
        walk(s, element->loop->hi, Use::size);
      }
      return;
    }
    if (const auto* increment = statement.as<TargetIncrement>()) {
      walk(s, increment->value, Use::value);
      return;
    }
    if (const auto* data = statement.as<DataDecl>()) {
      for (const auto& dim : data->dims) walk(s, dim, Use::size);
      for (const auto* bound : {&data->lower, &data->upper}) {
        if (*bound) walk(s, **bound, Use::bound);
      }
    } else if (const auto* assignment = statement.as<Deterministic>()) {
      if (is_network_call(assignment->value)) {
        check_network(s, assignment->value);
      } else {
        walk(s, assignment->value, Use::value);
      }
    } else if (const auto* random = statement.as<RandomStmt>()) {
      for (const auto& dim : random->dims) walk(s, dim, Use::size);
      for (const auto& dim : random->constraint_dims) walk(s, dim, Use::size);
      if (random->bounds) {
        for (const auto* bound : {&random->bounds->lower, &random->bounds->upper}) {
          if (*bound) walk(s, **bound, Use::value);
        }
      }
      check_distribution_call(s, random->distribution, false);
      if (random->truncation) check_truncation(s, *random);
      if (random->constraint != Constraint::none && random->constraint_dims.size() != 1) {
        diagnostics_.error(random->constraint_span,
                           std::string(constraint_name(random->constraint)) +
                               " takes one size, as in " + constraint_name(random->constraint) +
                               "[K]");
      }
      if (random->constraint != Constraint::none && !random->dims.empty()) {
        diagnostics_.error(random->constraint_span,
                           "'" + random->name + "' has both sizes and a constraint type; write " +
                               "the sizes in the constraint, as in " +
                               constraint_name(random->constraint) + "[K]");
      }
    }
  }

  void check_undefined_names() {
    for (const auto& [statement, references] : references_) {
      for (const auto& reference : references) {
        if (model_.node_positions.count(reference.name)) continue;
        std::vector<std::string> names;
        for (const auto& n : model_.nodes) names.push_back(n.name);
        std::string message = "undefined name '" + reference.name + "'";
        const std::string guess = closest_name(reference.name, names);
        if (const auto loop = loop_variables_.find(reference.name); loop != loop_variables_.end()) {
          message += "; '" + reference.name + "' is the index of the step of '" + statements()[loop->second].name() +
                     "' (" + where(loop->second) + ") and known only there";
        } else if (!guess.empty()) {
          message += "; did you mean '" + guess + "'?";
        }
        diagnostics_.error(reference.span, message);
      }
    }
  }

  // The statement whose evaluation gives `name` its value (none for data inputs).
  std::optional<size_t> producer(const std::string& name) const {
    const auto it = model_.node_positions.find(name);
    if (it == model_.node_positions.end()) return std::nullopt;
    const Node& n = model_.nodes[it->second];
    if (n.declaration) return std::nullopt;
    if (n.is_deterministic()) return n.definition();
    if (n.guide && n.distribution) return n.guide;  // the value is the guide's draw
    return n.distribution;
  }

  // Kahn's algorithm, taking the earliest ready statement first; what is left is cyclic.
  void order_statements() {
    const size_t count = statements().size();
    std::vector<std::set<size_t>> needs(count);
    std::vector<std::vector<size_t>> needed_by(count);
    for (const auto& [s, references] : references_) {
      for (const auto& reference : references) {
        const auto p = producer(reference.name);
        if (p && needs[s].insert(*p).second) needed_by[*p].push_back(s);
      }
    }
    // A recurrence's step completes it, after its initial elements.
    for (const Node& n : model_.nodes) {
      for (size_t i = 0; i + 1 < n.elements.size(); ++i) {
        const size_t step = n.elements.back();
        if (needs[step].insert(n.elements[i]).second) needed_by[n.elements[i]].push_back(step);
      }
    }
    // A prior scores the value its guide draws.
    for (const Node& n : model_.nodes) {
      if (n.guide && n.distribution && needs[*n.distribution].insert(*n.guide).second) {
        needed_by[*n.guide].push_back(*n.distribution);
      }
    }
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    std::vector<size_t> missing(count);
    for (size_t s = 0; s < count; ++s) {
      missing[s] = needs[s].size();
      if (missing[s] == 0) ready.push(s);
    }
    std::vector<bool> done(count, false);
    while (!ready.empty()) {
      const size_t s = ready.top();
      ready.pop();
      done[s] = true;
      const StatementKind kind = statements()[s].kind();
      if (kind != StatementKind::data && kind != StatementKind::function) model_.evaluation_order.push_back(s);
      for (size_t next : needed_by[s]) {
        if (--missing[next] == 0) ready.push(next);
      }
    }
    for (size_t s = 0; s < count; ++s) {
      if (done[s]) continue;
      report_cycle(s, needs, done);
      return;  // one cycle report is enough; the rest of the graph hangs on it
    }
  }

  void report_cycle(size_t start, const std::vector<std::set<size_t>>& needs,
                    const std::vector<bool>& done) {
    // Walk unfinished dependencies until a statement repeats.
    std::vector<size_t> path;
    std::map<size_t, size_t> seen;
    size_t s = start;
    while (!seen.count(s)) {
      seen[s] = path.size();
      path.push_back(s);
      for (size_t next : needs[s]) {
        if (!done[next]) {
          s = next;
          break;
        }
      }
    }
    std::string cycle;
    for (size_t i = seen[s]; i < path.size(); ++i) cycle += statements()[path[i]].name() + " -> ";
    cycle += statements()[s].name();
    cyclic_ = true;
    diagnostics_.error(statements()[s].name_span(),
                       "cycle in the model: " + cycle + " (each depends on the next)");
  }

  void classify() {
    if (cyclic_) return;
    for (Node& n : model_.nodes) {
      if (n.declaration) n.kind = n.distribution ? NodeKind::observed : NodeKind::data;
    }
    // In evaluation order every name a statement reads is already classified.
    for (size_t s : model_.evaluation_order) {
      Node& n = model_.nodes[model_.node_positions.at(statements()[s].name())];
      bool data_only = true;
      for (const auto& reference : references_[s]) {
        const auto it = model_.node_positions.find(reference.name);
        if (it == model_.node_positions.end()) continue;
        data_only = data_only && model_.nodes[it->second].is_data_valued();
        if (std::find(n.dependencies.begin(), n.dependencies.end(), reference.name) ==
            n.dependencies.end()) {
          n.dependencies.push_back(reference.name);
        }
      }
      if (const auto* assignment = statements()[s].as<Deterministic>()) {
        n.kind = is_network_call(assignment->value) ? NodeKind::network
                 : data_only                         ? NodeKind::transformed_data
                                                     : NodeKind::derived;
      } else if (statements()[s].kind() == StatementKind::element) {
        // Data only when every element is.
        const bool first = s == n.elements.front();
        n.kind = data_only && (first || n.kind == NodeKind::transformed_data) ? NodeKind::transformed_data
                                                                               : NodeKind::derived;
      } else if (statements()[s].kind() == StatementKind::target) {
        n.kind = NodeKind::log_density;
      } else if (!n.declaration && !n.is_deterministic() && n.distribution) {
        n.kind = NodeKind::latent;  // (a guide alone makes no variable: check_guide says so)
      }
    }
    // `NAME = expr` then `NAME ~ Dist(...)` observes NAME, which must then be data.
    for (Node& n : model_.nodes) {
      if (!n.is_deterministic() || !n.distribution) continue;
      if (n.kind == NodeKind::transformed_data) {
        n.kind = NodeKind::observed;
      } else {
        diagnostics_.error(statements()[*n.distribution].name_span(),
                           "'" + n.name + "' depends on parameters (" + where(*n.definition()) +
                               "), so it cannot be observed; only data can follow '~'");
      }
    }
  }

  void check_uses() {
    if (cyclic_) return;
    for (const auto& [s, references] : references_) {
      for (const auto& reference : references) {
        if (reference.use == Use::value) continue;
        const Node* n = model_.find(reference.name);
        if (!n || n->is_data_valued()) continue;
        const char* what = reference.use == Use::size    ? "sizes"
                           : reference.use == Use::index ? "indices"
                                                         : "the bounds of data";
        diagnostics_.error(reference.span, std::string(what) + " must come from the data, but '" + reference.name +
                                               "' is a " + node_kind_name(n->kind));
      }
    }
    for (const Node& n : model_.nodes) {
      if (n.guide) check_guide(n);
      if (n.kind == NodeKind::observed && n.distribution) {
        if (const auto& bounds = statements()[*n.distribution].as<RandomStmt>()->bounds) {
          diagnostics_.error(bounds->span, "'" + n.name + "' is data, so it cannot be declared a parameter with `" + n.name +
                                               ": real<...>`; declare its bounds as `data " + n.name + ": real<lower=L, upper=U>`");
        }
      }
      if (n.kind != NodeKind::latent) continue;
      const auto* random = statements()[*n.distribution].as<RandomStmt>();
      const std::string& family = random->distribution.name;
      if (discrete_families().count(family)) {
        diagnostics_.error(random->name_span,
                           "'" + n.name + "' has a discrete distribution (" + family +
                               ") but no data; declare it with `data " + n.name +
                               ": int` to observe it (discrete parameters cannot be inferred)");
      }
    }
  }

  // A guide is a reparameterizable family of a latent variable, read from the data and
  // networks only (so each observation's guide is a function of that observation).
  void check_guide(const Node& n) {
    const auto& guide = *statements()[*n.guide].as<RandomStmt>();
    if (!n.distribution || n.declaration || n.is_deterministic()) {
      diagnostics_.error(guide.name_span, "'" + n.name + "' is not a latent variable; a guide is the variational "
                                          "family of one, as in `z[N, 20] ~ Normal(0, 1)` with `guide z ~ Normal(...)`");
      return;
    }
    if (guide.distribution.kind == ExprKind::call && guide.distribution.name != "Normal") {
      diagnostics_.error(guide.distribution.span, "a guide is Normal(loc, scale) for now (its draws are "
                                                  "reparameterized); '" + guide.distribution.name + "' is not");
    }
    for (const auto& reference : references_[*n.guide]) {
      const Node* read = model_.find(reference.name);
      if (!read || read->is_data_valued() || read->kind == NodeKind::network) continue;
      diagnostics_.error(reference.span, "a guide reads the data and networks only, but '" + reference.name +
                                             "' is a " + node_kind_name(read->kind));
    }
  }

  CheckedModel& model_;
  const Source& source_;
  Diagnostics& diagnostics_;
  std::map<size_t, std::vector<Reference>> references_;
  std::map<size_t, size_t> statement_lines_;
  bool cyclic_ = false;
  // The number of initial elements before each recurrence step, and the steps' variables.
  std::map<size_t, size_t> step_initials_;
  std::map<std::string, size_t> loop_variables_;
  // While a recurrence's statement is walked: it, and the initial elements of its step.
  const ElementDefinition* current_element_ = nullptr;
  size_t current_initials_ = 0;
  // User functions by name (their statements), the body being walked, and which functions
  // each body calls.
  std::map<std::string, size_t> functions_;
  const FunctionDecl* current_function_ = nullptr;
  std::map<std::string, std::set<std::string>> calls_;
};

}  // namespace

const char* node_kind_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::data: return "data";
    case NodeKind::observed: return "observed variable";
    case NodeKind::latent: return "latent variable";
    case NodeKind::transformed_data: return "transformed data";
    case NodeKind::derived: return "derived quantity";
    case NodeKind::network: return "network";
    case NodeKind::log_density: return "log-density term";
  }
  return "node";
}

const Node* CheckedModel::find(const std::string& name) const {
  const auto found = node_positions.find(name);
  return found == node_positions.end() ? nullptr : &nodes[found->second];
}

namespace {

bool is_literal_number(const Expr& e) {
  return e.kind == ExprKind::number || (e.kind == ExprKind::negate && is_literal_number(e.operands.front()));
}

}  // namespace

bool CheckedModel::is_deep() const { return first_deep_node().has_value(); }

std::optional<std::pair<std::string, size_t>> CheckedModel::first_deep_node() const {
  for (const Node& n : nodes) {
    if (n.guide) return std::make_pair(n.name, *n.guide);
    if (n.kind == NodeKind::network) return std::make_pair(n.name, *n.assignment);
  }
  return std::nullopt;
}

std::optional<size_t> CheckedModel::rank_of(const std::string& name) const {
  const Node* node = find(name);
  if (!node) return std::nullopt;
  if (node->declaration) return program.statements[*node->declaration].as<DataDecl>()->dims.size();
  if (node->is_deterministic() || !node->distribution) return std::nullopt;
  const RandomStmt& random = *program.statements[*node->distribution].as<RandomStmt>();
  if (random.constraint == Constraint::cholesky_corr) return 2;
  if (random.constraint != Constraint::none) return 1;
  const DistributionSignature* signature = find_distribution(random.distribution.name);
  const size_t event_rank = signature ? static_cast<size_t>(signature->event_rank) : 0;
  if (!random.dims.empty()) return random.dims.size() + event_rank;
  for (const auto& argument : random.distribution.arguments) {
    if (!is_literal_number(argument.value)) return std::nullopt;
  }
  return event_rank;
}

std::vector<const ElementDefinition*> CheckedModel::elements_of(const std::string& name) const {
  std::vector<const ElementDefinition*> elements;
  if (const Node* node = find(name)) {
    for (size_t s : node->elements) elements.push_back(program.statements[s].as<ElementDefinition>());
  }
  return elements;
}

Constraint CheckedModel::constraint_of(const std::string& name) const {
  const Node* node = find(name);
  if (!node || !node->distribution) return Constraint::none;
  return program.statements[*node->distribution].as<RandomStmt>()->constraint;
}

CheckedModel check(Program program, const Source& source, Diagnostics& diagnostics) {
  CheckedModel model;
  model.program = std::move(program);
  Checker checker(model, source, diagnostics);
  checker.run();
  if (!diagnostics.has_errors()) inline_user_functions(model.program);
  return model;
}

}  // namespace variate::model
