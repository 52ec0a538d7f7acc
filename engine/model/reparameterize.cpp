#include "engine/model/reparameterize.h"

#include <algorithm>
#include <set>

#include "engine/core/argument_error.h"
#include "engine/model/distribution_table.h"

namespace variate::model {
namespace {

const std::set<std::string>& location_scale_families() {
  static const std::set<std::string> families{"Normal", "StudentT", "Cauchy", "Logistic", "Laplace"};
  return families;
}

bool reads_parameters(const Expr& expr, const CheckedModel& model) {
  if (expr.kind == ExprKind::name) {
    const Node* node = model.find(expr.name);
    return node &&
           (node->kind == NodeKind::latent || node->kind == NodeKind::derived || node->kind == NodeKind::network);
  }
  for (const Expr& operand : expr.operands) {
    if (reads_parameters(operand, model)) return true;
  }
  for (const Argument& argument : expr.arguments) {
    if (reads_parameters(argument.value, model)) return true;
  }
  return false;
}

// The call arguments giving the location and the scale (the family's first
// parameterization's last two parameters), or nullopt for a call that names another.
struct LocationScale {
  size_t location;
  size_t scale;
};

std::optional<LocationScale> location_and_scale(const Expr& call) {
  if (!location_scale_families().count(call.name)) return std::nullopt;
  const DistributionSignature* signature = find_distribution(call.name);
  const auto bound = signature ? bind_arguments(*signature, call) : std::nullopt;
  if (!bound || bound->parameterization != 0) return std::nullopt;
  const auto& of = bound->argument_of_parameter;
  return LocationScale{of[of.size() - 2], of[of.size() - 1]};
}

const RandomStmt* reparameterizable(const CheckedModel& model, const Node& node) {
  if (node.kind != NodeKind::latent || !node.distribution || node.guide) return nullptr;
  const RandomStmt* random = model.program.statements[*node.distribution].as<RandomStmt>();
  if (!random || random->constraint != Constraint::none || random->truncation || random->bounds) return nullptr;
  const auto arguments = location_and_scale(random->distribution);
  if (!arguments) return nullptr;
  const auto& call = random->distribution.arguments;
  const bool reads =
      reads_parameters(call[arguments->location].value, model) || reads_parameters(call[arguments->scale].value, model);
  return reads ? random : nullptr;
}

// lambda as an expression: a number, or a vector literal of one per element.
Expr lambda_expr(const std::vector<double>& lambda, Span span) {
  if (lambda.size() == 1) return Expr::number(lambda[0], false, span);
  std::vector<Expr> items;
  items.reserve(lambda.size());
  for (double value : lambda) items.push_back(Expr::number(value, false, span));
  return Expr::vector(std::move(items), span);
}

Expr one_minus(const Expr& lambda, Span span) {
  if (lambda.kind == ExprKind::number) return Expr::number(1 - lambda.value, false, span);
  Expr result = lambda;
  for (Expr& item : result.operands) item.value = 1 - item.value;
  return result;
}

}  // namespace

std::vector<std::string> location_scale_variables(const CheckedModel& model) {
  std::vector<std::pair<size_t, std::string>> found;
  for (const Node& node : model.nodes) {
    if (reparameterizable(model, node)) found.emplace_back(*node.distribution, node.name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> names;
  for (auto& [statement, name] : found) names.push_back(std::move(name));
  return names;
}

std::string standardized_name(const std::string& name) { return name + ".z"; }

Program reparameterize(const CheckedModel& model, const Centering& centering) {
  Program program = model.program;
  for (const auto& [name, lambda] : centering) {
    const Node* node = model.find(name);
    const RandomStmt* original = node ? reparameterizable(model, *node) : nullptr;
    if (!original) {
      throw ArgumentError("cannot reparameterize '" + name +
                          "': it is not a latent variable of a location-scale family whose location or scale "
                          "depends on parameters");
    }
    if (lambda.empty()) throw ArgumentError("reparameterizing '" + name + "': no centering given");
    for (double value : lambda) {
      if (!(value >= 0 && value <= 1)) {
        throw ArgumentError("reparameterizing '" + name + "': a centering must lie in [0, 1], got " +
                            std::to_string(value));
      }
    }
    const size_t statement = *node->distribution;
    const LocationScale arguments = *location_and_scale(original->distribution);
    const Span span = original->distribution.span;
    const Expr location = original->distribution.arguments[arguments.location].value;
    const Expr scale = original->distribution.arguments[arguments.scale].value;
    const Expr weight = lambda_expr(lambda, span);
    const auto times = [&](Expr a, Expr b) {
      return Expr::binary(BinaryOp::multiply, std::move(a), std::move(b), span);
    };
    const auto power = [&](Expr a, Expr b) { return Expr::binary(BinaryOp::power, std::move(a), std::move(b), span); };

    // theta.z ~ F(lambda * mu, sigma ^ lambda), in place.
    RandomStmt standardized = *original;
    standardized.name = standardized_name(name);
    standardized.distribution.arguments[arguments.location].value = times(weight, location);
    standardized.distribution.arguments[arguments.scale].value = power(scale, weight);
    Statement& at = program.statements[statement];
    at.node = std::move(standardized);

    // theta = mu + sigma ^ (1 - lambda) * (theta.z - lambda * mu), appended.
    const Expr z = Expr::identifier(standardized_name(name), original->name_span);
    const Expr offset = Expr::binary(BinaryOp::subtract, z, times(weight, location), span);
    Deterministic recovered{
        name, original->name_span,
        Expr::binary(BinaryOp::add, location, times(power(scale, one_minus(weight, span)), offset), span)};
    Statement appended;
    appended.node = std::move(recovered);
    appended.span = at.span;
    program.statements.push_back(std::move(appended));
  }
  return program;
}

}  // namespace variate::model
