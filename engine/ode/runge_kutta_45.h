#pragma once
/// An adaptive explicit Runge-Kutta method of order 5(4), Dormand & Prince (1980), as
/// Stan's ode_rk45 (Boost odeint's runge_kutta_dopri5): steps accepted when the embedded
/// 4th-order solution agrees with the 5th to the tolerances (step_control.h: every
/// component's error within absolute + relative * |y|), the next step from the error's
/// fifth root; steps end exactly at the output times.

#include "engine/ode/ode_system.h"

namespace variate::ode {

/// y at each of `times` (increasing, none before t0) from y(t0) = y0; with
/// `sensitivities`, d y / d (y0, theta) too (the coupled system's error control includes
/// them, as Stan's does).
/// @throws StepLimitError naming the interval where more than max_steps were needed.
/// @throws std::invalid_argument for times out of order, a size that does not match, or
/// tolerances that are not positive.
OdeSolution solve_rk45(const OdeSystem& system, double t0, const std::vector<double>& y0,
                       const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities);

}  // namespace variate::ode
