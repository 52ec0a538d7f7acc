#pragma once
/// An initial value problem dy/dt = f(t, y, theta) as the solvers take it: the right-hand
/// side, and its Jacobians for the forward sensitivities d y(t) / d (y0, theta), which are
/// integrated with the states as one coupled system, as Stan's solvers do.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace variate::ode {

struct OdeSystem {
  int64_t states = 0;      // N
  int64_t parameters = 0;  // P
  /// dydt[i] = f_i(t, y); theta is bound by the caller.
  std::function<void(double t, const double* y, double* dydt)> rhs;
  /// d f / d y (N x N, row-major: [i * N + j] = d f_i / d y_j) and d f / d theta (N x P).
  /// Needed only for sensitivities.
  std::function<void(double t, const double* y, double* jacobian_y, double* jacobian_theta)> jacobians;
};

/// Stan's arguments and defaults for its ODE solvers.
struct OdeTolerances {
  double relative = 1e-6;
  double absolute = 1e-6;
  /// Steps allowed between two output times.
  int64_t max_steps = 1000000;
};

/// The states at each output time and, when asked for, their sensitivities.
struct OdeSolution {
  int64_t states = 0;
  int64_t parameters = 0;
  /// T x N, row-major: y(times[k])[i] at [k * N + i].
  std::vector<double> values;
  /// T x N x (N + P): d y_i(times[k]) / d y0_j at [(k * N + i) * (N + P) + j], then
  /// d y_i(times[k]) / d theta_p at column N + p. Empty without sensitivities.
  std::vector<double> sensitivities;
};

/// A solver that reached its step limit between two output times: the system is likely
/// stiff (or its tolerances too tight); the point's density is -inf.
class StepLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace variate::ode
