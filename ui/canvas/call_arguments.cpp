#include "ui/canvas/call_arguments.h"

#include "ui/canvas/program_edits.h"
#include "ui/modeling/distribution_catalog.h"

namespace variate::ui::calls {
namespace {

using model::Argument;
using model::Expr;

std::string str(const QString& text) { return text.toStdString(); }

// The current argument of each parameter of a call, by name.
std::vector<std::pair<std::string, Expr>> namedArguments(const Expr& call) {
  std::vector<std::pair<std::string, Expr>> named;
  const FamilyInfo* family = catalog::find(QString::fromStdString(call.name));
  const auto binding = family ? bind(*family, call) : std::nullopt;
  if (!binding) return named;
  const auto& parameters = family->parameterizations[binding->parameterization];
  for (int p = 0; p < parameters.size(); ++p) {
    named.emplace_back(str(parameters[p].name), call.arguments[binding->argumentOf[p]].value);
  }
  return named;
}

}  // namespace

std::optional<Binding> bind(const FamilyInfo& family, const Expr& call) {
  for (int k = 0; k < family.parameterizations.size(); ++k) {
    const auto& parameters = family.parameterizations[k];
    if (static_cast<int>(call.arguments.size()) != parameters.size()) continue;
    Binding binding{k, std::vector<int>(parameters.size(), -1)};
    bool fits = true;
    for (int i = 0; i < static_cast<int>(call.arguments.size()) && fits; ++i) {
      const Argument& argument = call.arguments[i];
      if (!argument.is_named()) {
        binding.argumentOf[i] = i;
        continue;
      }
      fits = false;
      for (int p = 0; p < parameters.size(); ++p) {
        if (str(parameters[p].name) == argument.name && binding.argumentOf[p] < 0) {
          binding.argumentOf[p] = i;
          fits = true;
        }
      }
    }
    if (fits) return binding;
  }
  return std::nullopt;
}

Expr makeCall(const FamilyInfo& family, int parameterization, std::vector<Expr> values) {
  const auto& parameters = family.parameterizations[parameterization];
  const auto& first = family.parameterizations[0];
  std::vector<Argument> arguments;
  bool positional = true;
  for (int p = 0; p < parameters.size(); ++p) {
    positional = positional && p < first.size() && first[p].name == parameters[p].name;
    Argument argument;
    if (!positional) argument.name = str(parameters[p].name);
    argument.value = std::move(values[p]);
    arguments.push_back(std::move(argument));
  }
  return Expr::call(str(family.name), std::move(arguments), {});
}

Expr rebuildCall(const FamilyInfo& family, int parameterization, const Expr& old) {
  const auto kept = namedArguments(old);
  std::vector<Expr> values;
  for (const auto& parameter : family.parameterizations[parameterization]) {
    std::optional<Expr> value;
    for (const auto& [name, expr] : kept) {
      if (name == str(parameter.name)) value = expr;
    }
    values.push_back(value ? *value : edits::parseExpression(parameter.defaultText));
  }
  return makeCall(family, parameterization, std::move(values));
}

}  // namespace variate::ui::calls
