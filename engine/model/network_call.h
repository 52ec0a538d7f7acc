#pragma once
/// A network declaration in a model: `decoder = mlp(z, 400, 784, activation = relu)` — a
/// multilayer perceptron applied to a matrix [rows, features], with the output width of
/// each layer (the last is the network's output) and the activation between layers. Its
/// weights are point parameters the fit learns (engine/deep builds and trains it).

#include <optional>
#include <string>
#include <vector>

#include "engine/model/ast.h"
#include "engine/model/diagnostic.h"

namespace variate::model {

enum class Activation { relu, tanh, sigmoid, softplus, elu };

/// "relu", ...
const char* activation_name(Activation activation);
/// nullopt for a name that is none.
std::optional<Activation> activation_from_name(const std::string& name);
/// "relu, tanh, sigmoid, softplus or elu".
std::string activation_choices();

/// Whether `expr` calls a network (`mlp(...)`).
bool is_network_call(const Expr& expr);

struct NetworkCall {
  const Expr* input = nullptr;  // the first argument
  std::vector<int64_t> widths;
  Activation activation = Activation::relu;
};

/// Reads a network call, reporting each problem (a size that is not a positive integer,
/// an unknown activation, a missing input) to `diagnostics` located at its argument.
/// nullopt when the call is wrong.
std::optional<NetworkCall> read_network_call(const Expr& call, Diagnostics& diagnostics);

}  // namespace variate::model
