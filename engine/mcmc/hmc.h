#pragma once
/// Hamiltonian Monte Carlo with a fixed number of leapfrog steps and a Metropolis
/// correction (Duane et al. 1987; Neal 2011, Sec. 5.3.2). NUTS chooses the trajectory
/// length itself; this kernel is the plain building block, useful for tests and for
/// targets where a tuned length is known.

#include "variate/mcmc/hamiltonian.h"
#include "variate/core/random_stream.h"

namespace variate {

struct HmcResult {
  double accept_stat = 0;  // min(1, exp(H0 - H1))
  bool is_accepted = false;
  bool has_divergence = false;  // energy error above the threshold, or NaN
  double energy = 0;            // H at the returned point
  double log_density = 0;
};

class Hmc {
 public:
  /// @throws ArgumentError unless num_leapfrog_steps >= 1.
  Hmc(const Hamiltonian& hamiltonian, int num_leapfrog_steps, double max_energy_error = 1000);

  /// One transition from `point` (which holds its log density and gradient); the
  /// momentum is resampled and `point` becomes the new state.
  HmcResult one_step(PhasePoint& point, double step_size, RandomStream& random) const;

 private:
  const Hamiltonian& hamiltonian_;
  int num_leapfrog_steps_;
  double max_energy_error_;
};

}  // namespace variate
