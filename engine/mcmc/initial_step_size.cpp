#include "engine/mcmc/initial_step_size.h"

#include <cmath>
#include <limits>

#include "engine/core/checks.h"

namespace variate {

double initial_step_size(const Hamiltonian& hamiltonian, const PhasePoint& start, double step_size,
                         RandomStream& random) {
  const EuclideanMetric& metric = hamiltonian.metric();
  const double log_threshold = std::log(0.8);
  int direction = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    PhasePoint z = start;
    metric.sample_momentum(z.p, random);
    const double h0 = hamiltonian.energy(z);
    hamiltonian.leapfrog(z, step_size);
    double h = hamiltonian.energy(z);
    if (std::isnan(h)) h = std::numeric_limits<double>::infinity();
    const double delta = h0 - h;
    if (direction == 0) {
      direction = delta > log_threshold ? 1 : -1;
    } else if ((direction == 1 && !(delta > log_threshold)) || (direction == -1 && !(delta < log_threshold))) {
      break;
    }
    step_size = direction == 1 ? 2 * step_size : 0.5 * step_size;
    if (step_size > 1e7) {
      throw ArgumentError("the step size grew past 1e7 while initializing: the posterior may be improper");
    }
    if (step_size == 0) throw ArgumentError("no acceptably small step size could be found");
  }
  return step_size;
}

}  // namespace variate
