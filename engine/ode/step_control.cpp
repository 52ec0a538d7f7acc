#include "engine/ode/step_control.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace variate::ode {

void check_arguments(const OdeSystem& system, double t0, const std::vector<double>& y0,
                     const std::vector<double>& times, const OdeTolerances& tolerances) {
  if (static_cast<int64_t>(y0.size()) != system.states) {
    throw std::invalid_argument("the initial state has " + std::to_string(y0.size()) + " elements, the system " +
                                std::to_string(system.states));
  }
  double last = t0;
  for (size_t k = 0; k < times.size(); ++k) {
    if (!(times[k] > last)) {
      std::ostringstream message;
      message << "the output times must be increasing and after the initial time " << t0 << "; time " << k + 1 << " is "
              << times[k];
      throw std::invalid_argument(message.str());
    }
    last = times[k];
  }
  if (!(tolerances.relative > 0) || !(tolerances.absolute > 0) || tolerances.max_steps < 1) {
    throw std::invalid_argument("the relative and absolute tolerances and the step limit must be positive");
  }
}

double scaled_norm(const std::vector<double>& v, const std::vector<double>& y, const OdeTolerances& tolerances) {
  double largest = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const double scaled = std::abs(v[i]) / (tolerances.absolute + tolerances.relative * std::abs(y[i]));
    if (std::isnan(scaled)) return scaled;
    largest = std::max(largest, scaled);
  }
  return largest;
}

StepLimitError step_limit_reached(const char* solver, int64_t max_steps, double t, double end, const char* advice) {
  std::ostringstream message;
  message << "the ODE solver " << solver << " took more than " << max_steps << " steps between t = " << t
          << " and t = " << end << " (max_num_steps); " << advice;
  return StepLimitError(message.str());
}

void check_step_size(const char* solver, double h, double t) {
  if (h > 1e-14 * std::max(1.0, std::abs(t))) return;
  std::ostringstream message;
  message << "the ODE solver " << solver << "'s step fell to " << h << " at t = " << t
          << ": the right-hand side may not be finite there";
  throw StepLimitError(message.str());
}

}  // namespace variate::ode
