#pragma once
/// Initial value problems the ODE solvers' tests share, with their Jacobians.

#include <cmath>
#include <string>
#include <vector>

#include "engine/ode/ode_system.h"

namespace ode_systems {

namespace vo = variate::ode;

// y' = -k y, theta = {k}.
inline vo::OdeSystem decay(double k) {
  vo::OdeSystem s;
  s.states = 1;
  s.parameters = 1;
  s.rhs = [k](double, const double* y, double* dydt) { dydt[0] = -k * y[0]; };
  s.jacobians = [k](double, const double* y, double* jy, double* jtheta) {
    jy[0] = -k;
    jtheta[0] = -y[0];
  };
  return s;
}

// Lotka-Volterra: u' = (a - b v) u, v' = (-c + d u) v, theta = {a, b, c, d}.
inline vo::OdeSystem lotka_volterra(const std::vector<double>& theta) {
  vo::OdeSystem s;
  s.states = 2;
  s.parameters = 4;
  s.rhs = [theta](double, const double* y, double* dydt) {
    dydt[0] = (theta[0] - theta[1] * y[1]) * y[0];
    dydt[1] = (-theta[2] + theta[3] * y[0]) * y[1];
  };
  s.jacobians = [theta](double, const double* y, double* jy, double* jtheta) {
    jy[0] = theta[0] - theta[1] * y[1], jy[1] = -theta[1] * y[0];
    jy[2] = theta[3] * y[1], jy[3] = -theta[2] + theta[3] * y[0];
    jtheta[0] = y[0], jtheta[1] = -y[0] * y[1], jtheta[2] = 0, jtheta[3] = 0;
    jtheta[4] = 0, jtheta[5] = 0, jtheta[6] = -y[1], jtheta[7] = y[0] * y[1];
  };
  return s;
}

/// n points after a, the last b.
inline std::vector<double> linspace(double a, double b, int n) {
  std::vector<double> t;
  for (int i = 1; i <= n; ++i) t.push_back(a + (b - a) * i / n);
  return t;
}

/// A solver's signature (solve_rk45, solve_sdirk4).
using Solve = vo::OdeSolution (*)(const vo::OdeSystem&, double, const std::vector<double>&, const std::vector<double>&,
                                  const vo::OdeTolerances&, bool);

/// Empty when `solve`'s sensitivities of Lotka-Volterra on (0, 20] agree with central
/// differences of its solutions at `tight` tolerances, to `tolerance` relative; otherwise
/// the first disagreement.
inline std::string sensitivity_problem(Solve solve, const vo::OdeTolerances& tight, double tolerance) {
  const std::vector<double> theta = {0.55, 0.028, 0.84, 0.024}, y0 = {33, 6.2};
  const std::vector<double> times = linspace(0, 20, 20);
  const vo::OdeSolution s = solve(lotka_volterra(theta), 0, y0, times, tight, true);
  for (int q = 0; q < 6; ++q) {  // y0[0], y0[1], then theta's four
    std::vector<double> up_theta = theta, down_theta = theta, up_y = y0, down_y = y0;
    const double h = 1e-6 * (q < 2 ? y0[q] : theta[q - 2]);
    if (q < 2) {
      up_y[q] += h, down_y[q] -= h;
    } else {
      up_theta[q - 2] += h, down_theta[q - 2] -= h;
    }
    const auto up = solve(lotka_volterra(up_theta), 0, up_y, times, tight, false);
    const auto down = solve(lotka_volterra(down_theta), 0, down_y, times, tight, false);
    for (size_t k = 0; k < times.size(); ++k) {
      for (int i = 0; i < 2; ++i) {
        const double difference = (up.values[2 * k + i] - down.values[2 * k + i]) / (2 * h);
        const double sensitivity = s.sensitivities[(2 * k + i) * 6 + q];
        if (!(std::abs(difference - sensitivity) <= tolerance * (1 + std::abs(difference)))) {
          return "d y" + std::to_string(i) + "(t=" + std::to_string(times[k]) + ") / d q" + std::to_string(q) + ": " +
                 std::to_string(difference) + " by differences, " + std::to_string(sensitivity);
        }
      }
    }
  }
  return {};
}

}  // namespace ode_systems
