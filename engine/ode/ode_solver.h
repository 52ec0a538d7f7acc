#pragma once
/// The ODE solvers by kind: what the language's ode_rk45 and ode_bdf choose between.

#include <vector>

#include "engine/ode/ode_system.h"

namespace variate::ode {

enum class OdeSolver {
  rk45,  // Dormand-Prince 5(4): non-stiff systems (runge_kutta_45.h)
  bdf,   // SDIRK4: stiff systems (sdirk4.h)
};

/// The solver's name in messages: "rk45", "bdf".
const char* solver_name(OdeSolver solver);

/// solve_rk45 or solve_sdirk4.
OdeSolution solve_ode(OdeSolver solver, const OdeSystem& system, double t0, const std::vector<double>& y0,
                      const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities);

}  // namespace variate::ode
