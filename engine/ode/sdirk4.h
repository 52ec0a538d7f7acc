#pragma once
/// A stiff solver: the L-stable singly diagonally implicit Runge-Kutta method of order 4
/// with an embedded order-3 solution (Hairer & Wanner, Solving ODEs II, IV.6, Table 6.5:
/// five stages, diagonal 1/4, stiffly accurate); the error estimate filtered through the
/// iteration matrix so that stiff components do not inflate it.
///
/// Chosen over a variable-order BDF (Stan's CVODES) and over Rosenbrock methods for the
/// sensitivities: each implicit stage is solved by Newton's method, and the sensitivities
/// d y / d (y0, theta) then follow from the same stage equations by one linear solve with
/// the Jacobian at the converged stage (the staggered direct method), so they are the exact
/// derivatives of the computed solution and need no second derivatives of f, which a
/// Rosenbrock method's would. A one-step method also restarts at no cost at each output
/// time, and order 4 keeps the global error near the tolerances asked for.

#include "engine/ode/ode_system.h"

namespace variate::ode {

/// y at each of `times` (increasing, none before t0) from y(t0) = y0; with
/// `sensitivities`, d y / d (y0, theta) too (included in the error control, as in rk45).
/// @throws StepLimitError naming the interval where more than max_steps were needed.
/// @throws std::invalid_argument as solve_rk45.
OdeSolution solve_sdirk4(const OdeSystem& system, double t0, const std::vector<double>& y0,
                         const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities);

}  // namespace variate::ode
