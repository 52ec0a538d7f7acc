#include "engine/model/distribution_support.h"

#include <ATen/ATen.h>

#include "engine/core/distribution.h"
#include "engine/distributions/cumulative.h"
#include "engine/model/distribution_table.h"

namespace variate::model {
namespace {

// A valid value for a parameter: a probability where one is expected, an interval with
// lo < hi, a simplex or identity matrix for vector and matrix parameters.
at::Tensor example_argument(const ParameterSpec& parameter) {
  const auto options = at::TensorOptions().dtype(at::kDouble);
  const std::string name = parameter.name;
  if (parameter.event_rank == 2) return at::eye(2, options);
  if (parameter.event_rank == 1) {
    if (name == "mu" || name == "logits") return at::zeros({2}, options);
    return at::full({2}, 0.5, options);  // a simplex also serves as positive concentrations
  }
  if (name == "p") return at::full({}, 0.5, options);
  // Scalar mu stays 1: NegBinomial2's is a positive mean.
  if (name == "lo" || name == "logits" || name == "log_rate") return at::zeros({}, options);
  if (name == "hi") return at::full({}, 2.0, options);
  return at::ones({}, options);
}

DistributionPtr build_example(const DistributionSignature& signature) {
  const auto& parameters = signature.parameterizations.front();
  DistributionArguments arguments;
  arguments.declared_shape = {2, 2};  // LKJCorrCholesky reads its size from the variable
  for (const auto& parameter : parameters) {
    if (parameter.is_distribution) {
      // Two Normal components, matching the example weights' two entries.
      const auto* normal = find_distribution("Normal");
      const auto options = at::TensorOptions().dtype(at::kDouble);
      arguments.component =
          normal->build(0, {{at::zeros({2}, options), at::ones({2}, options)}, nullptr, {}});
      continue;
    }
    arguments.tensors.push_back(example_argument(parameter));
  }
  return signature.build(0, arguments);
}

}  // namespace

std::optional<FamilySupport> family_support(const std::string& family) {
  const DistributionSignature* signature = find_distribution(family);
  if (!signature) return std::nullopt;
  const DistributionPtr example = build_example(*signature);
  const Support support = example->support();
  FamilySupport result;
  result.kind = support.kind();
  result.event_rank = signature->event_rank;
  result.description = support.to_string();
  for (const auto& parameter : signature->parameterizations.front()) {
    result.from_component = result.from_component || parameter.is_distribution;
  }
  return result;
}

}  // namespace variate::model

namespace variate::model {

bool can_truncate(const std::string& family) {
  const DistributionSignature* signature = find_distribution(family);
  if (!signature || signature->event_rank != 0) return false;
  const DistributionPtr example = build_example(*signature);
  return dynamic_cast<const distributions::Cumulative*>(example.get()) != nullptr;
}

std::string truncatable_families() {
  std::string names;
  for (const auto& family : distribution_names()) {
    if (can_truncate(family)) names += (names.empty() ? "" : ", ") + family;
  }
  return names;
}

}  // namespace variate::model
