#pragma once
/// The distributions the model language knows: their argument names (Stan's
/// parameterizations, with alternatives such as `logits =`), and how to build each from
/// evaluated arguments.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/domain_error.h"
#include "engine/core/random_variable.h"
#include "engine/core/shape.h"
#include "engine/model/ast.h"

namespace variate::model {

struct ParameterSpec {
  const char* name;
  /// Dimensions one value of the parameter spans per variable element (Sigma: 2).
  int64_t event_rank = 0;
  /// A distribution rather than a tensor (Mixture's component).
  bool is_distribution = false;
  /// What the engine's distribution calls it in its messages, where that differs (Gamma's
  /// shape is its alpha): model errors say `name`.
  const char* engine_name = nullptr;
};

struct DistributionArguments {
  std::vector<at::Tensor> tensors;  // in the parameterization's order (not components)
  DistributionPtr component;        // Mixture only
  Shape declared_shape;             // the variable's shape where a family needs it (LKJ)
};

struct DistributionSignature {
  std::string name;
  /// The first is the positional one; the others are chosen by named arguments.
  std::vector<std::vector<ParameterSpec>> parameterizations;
  /// Rank of one draw (MultiNormal 1, LKJCorrCholesky 2).
  int64_t event_rank = 0;
  std::function<DistributionPtr(size_t parameterization, const DistributionArguments&)> build;
};

/// Which parameterization a call uses, and for each of its parameters the index of the
/// call argument that gives it.
struct BoundArguments {
  size_t parameterization = 0;
  std::vector<size_t> argument_of_parameter;
};

/// Positional arguments fill the first parameters in order; named ones pick theirs.
/// nullopt when no parameterization fits the call.
std::optional<BoundArguments> bind_arguments(const DistributionSignature& signature,
                                             const Expr& call);

/// nullptr for an unknown name.
const DistributionSignature* find_distribution(const std::string& name);

/// All names, for messages and the canvas palette.
std::vector<std::string> distribution_names();

/// A distribution's domain error as the model text words it: its arguments by the
/// language's names (Gamma's `rate`, the engine's beta) and indices counted from 1.
std::string model_message(const DomainError& e, const std::vector<ParameterSpec>& parameters);

/// "Normal(mu, sigma)", "Bernoulli(p | logits)".
std::string describe(const DistributionSignature& signature);

}  // namespace variate::model
