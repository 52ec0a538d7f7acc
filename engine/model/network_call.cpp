#include "engine/model/network_call.h"

namespace variate::model {
namespace {

constexpr Activation kActivations[] = {Activation::relu, Activation::tanh, Activation::sigmoid,
                                       Activation::softplus, Activation::elu};

}  // namespace

const char* activation_name(Activation activation) {
  switch (activation) {
    case Activation::relu: return "relu";
    case Activation::tanh: return "tanh";
    case Activation::sigmoid: return "sigmoid";
    case Activation::softplus: return "softplus";
    case Activation::elu: return "elu";
  }
  return "";
}

std::optional<Activation> activation_from_name(const std::string& name) {
  for (const Activation a : kActivations) {
    if (name == activation_name(a)) return a;
  }
  return std::nullopt;
}

std::string activation_choices() {
  std::string text;
  const size_t count = std::size(kActivations);
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) text += i + 1 == count ? " or " : ", ";
    text += activation_name(kActivations[i]);
  }
  return text;
}

bool is_network_call(const Expr& expr) { return expr.kind == ExprKind::call && expr.name == "mlp"; }

std::optional<NetworkCall> read_network_call(const Expr& call, Diagnostics& diagnostics) {
  NetworkCall network;
  bool ok = true;
  for (const Argument& argument : call.arguments) {
    if (argument.is_named()) {
      if (argument.name != "activation") {
        diagnostics.error(argument.name_span, "mlp has no argument named '" + argument.name +
                                                  "'; it takes an input, layer widths and activation = ...");
        ok = false;
        continue;
      }
      const auto activation = argument.value.kind == ExprKind::name
                                  ? activation_from_name(argument.value.name)
                                  : std::nullopt;
      if (!activation) {
        diagnostics.error(argument.value.span, "the activation must be " + activation_choices());
        ok = false;
        continue;
      }
      network.activation = *activation;
    } else if (!network.input) {
      network.input = &argument.value;
    } else if (argument.value.kind != ExprKind::number || !argument.value.is_integer ||
               argument.value.value < 1) {
      diagnostics.error(argument.value.span,
                        "a layer width must be a positive whole number, as in mlp(x, 400, 20)");
      ok = false;
    } else {
      network.widths.push_back(static_cast<int64_t>(argument.value.value));
    }
  }
  if (!network.input || network.widths.empty()) {
    diagnostics.error(call.span, "mlp takes an input and at least one layer width, as in "
                                 "mlp(x, 400, 20, activation = relu)");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return network;
}

}  // namespace variate::model
