#include "engine/vi/variational_program.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/shape.h"

namespace variate {

VariationalProgram::VariationalProgram(std::function<void()> program,
                                       std::vector<at::Tensor> parameters)
    : program_(std::move(program)), parameters_(std::move(parameters)) {
  if (!program_) throw ArgumentError("VariationalProgram: argument 'program' is empty");
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const at::Tensor& p = parameters_[i];
    if (!p.defined() || !at::isFloatingType(p.scalar_type()) || !p.is_leaf() ||
        !p.requires_grad()) {
      throw ArgumentError("VariationalProgram: argument 'parameters' must hold floating-point "
                          "leaf tensors with requires_grad set; entry " + std::to_string(i) +
                          " is not");
    }
  }
}

std::vector<at::Tensor> snapshot_parameters(const VariationalFamily& family) {
  std::vector<at::Tensor> values;
  for (const auto& p : family.parameters()) values.push_back(p.detach().clone());
  return values;
}

void restore_parameters(const VariationalFamily& family, const std::vector<at::Tensor>& values) {
  const auto parameters = family.parameters();
  if (parameters.size() != values.size()) {
    throw ArgumentError("restore_parameters: the family has " + std::to_string(parameters.size()) +
                        " parameters, got " + std::to_string(values.size()) + " values");
  }
  at::NoGradGuard no_grad;
  for (size_t i = 0; i < values.size(); ++i) {
    if (parameters[i].sizes() != values[i].sizes()) {
      throw ArgumentError("restore_parameters: value " + std::to_string(i) + " has shape " +
                          to_string(values[i].sizes()) + ", its parameter " +
                          to_string(parameters[i].sizes()));
    }
    parameters[i].copy_(values[i]);
  }
}

}  // namespace variate
