#pragma once
/// An ODE call (model/ode_call.h) on the tape: one instruction whose forward runs the
/// solver (engine/ode) with forward sensitivities and keeps them in the arena, and whose
/// backward contracts them with the solution's adjoint. The right-hand side is the call's
/// body compiled as a program of its own, inputs (t, y, theta): dy/dt by its forward sweep,
/// the Jacobians d f / d (y, theta) by one reverse sweep per state.

#include <memory>
#include <vector>

#include "engine/ode/ode_solver.h"
#include "engine/tape/program/builder.h"

namespace variate::tape {

/// f(t, y, theta) as a program: inputs t, y [states], theta [parameters] (the reals passed
/// to f, flattened in order); `output` is dy/dt's resolved arena offset.
struct RightHandSide {
  Program program;
  int64_t output = -1;
  int64_t states = 0;
  int64_t parameters = 0;
};

struct OdeSettings {
  ode::OdeSolver solver = ode::OdeSolver::rk45;
  ode::OdeTolerances tolerances;
  double t0 = 0;
  std::vector<double> times;
};

/// y at each output time, [T, N], from y0 [N] and the real arguments passed to f (theta is
/// their values in order). Where the solver reaches its step limit the sweep is rejected:
/// the density is 0 there, counted and explained as an argument outside its domain is.
/// @throws Unsupported for more than five passed reals.
Slot emit_ode(ProgramBuilder& builder, std::shared_ptr<const RightHandSide> rhs, OdeSettings settings, const Slot& y0,
              const std::vector<Slot>& passed);

}  // namespace variate::tape
