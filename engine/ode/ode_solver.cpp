#include "engine/ode/ode_solver.h"

#include "engine/ode/runge_kutta_45.h"
#include "engine/ode/sdirk4.h"

namespace variate::ode {

const char* solver_name(OdeSolver solver) { return solver == OdeSolver::rk45 ? "rk45" : "bdf"; }

OdeSolution solve_ode(OdeSolver solver, const OdeSystem& system, double t0, const std::vector<double>& y0,
                      const std::vector<double>& times, const OdeTolerances& tolerances, bool sensitivities) {
  if (solver == OdeSolver::rk45) return solve_rk45(system, t0, y0, times, tolerances, sensitivities);
  return solve_sdirk4(system, t0, y0, times, tolerances, sensitivities);
}

}  // namespace variate::ode
