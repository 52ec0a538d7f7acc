#pragma once
/// An ODE call (ode_call.h) evaluated on LibTorch for one point: the solver runs on
/// doubles (engine/ode); the right-hand side and its Jacobians are the call's inlined body
/// evaluated by the model's evaluator, differentiated by autograd; the solution is
/// differentiable in y0 and in the real arguments passed to f, by a custom autograd
/// function whose backward contracts the forward sensitivities with the incoming gradient.

#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/model/ast.h"
#include "engine/model/ode_call.h"
#include "engine/model/value.h"

namespace variate::model {

struct OdeProblem {
  /// The call: its form, its inlined body (operands[0]) and types, its text for messages.
  const Expr* call = nullptr;
  OdeForm form;
  ode::OdeTolerances tolerances;
  double t0 = 0;
  std::vector<double> times;
  /// Evaluate the right-hand side with located shape checks (while a model is checked).
  bool checking = false;
  /// Solve with the sensitivities even when no gradient is asked for: they take part in the
  /// error control, so a call that depends on parameters gets the same steps, and the same
  /// values, whether or not its gradient is wanted, and on either backend (the tape's
  /// solves always carry them).
  bool sensitivities = false;
};

/// y at each output time, [T, N] in float64, from y0 [N] and the values passed to f after
/// t and y (one point's each).
/// @throws ModelError at the call when the solver reaches its step limit (at a sampler's
/// point the density is then 0, as for an argument outside its domain) or when f's value
/// is not a vector of N elements.
at::Tensor solve_ode_on_torch(const OdeProblem& problem, const at::Tensor& y0, const std::vector<Value>& passed);

}  // namespace variate::model
