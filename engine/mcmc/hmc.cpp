#include "variate/mcmc/hmc.h"

#include <cmath>
#include <limits>

#include "variate/core/checks.h"

namespace variate {

Hmc::Hmc(const Hamiltonian& hamiltonian, int num_leapfrog_steps, double max_energy_error)
    : hamiltonian_(hamiltonian), num_leapfrog_steps_(num_leapfrog_steps),
      max_energy_error_(max_energy_error) {
  if (num_leapfrog_steps < 1) {
    throw ArgumentError("HMC: argument 'num_leapfrog_steps' must be at least 1, got " +
                        std::to_string(num_leapfrog_steps));
  }
}

HmcResult Hmc::one_step(PhasePoint& point, double step_size, RandomStream& random) const {
  hamiltonian_.metric().sample_momentum(point.p, random);
  const double initial_energy = hamiltonian_.energy(point);
  PhasePoint proposal = point;
  HmcResult result;
  for (int step = 0; step < num_leapfrog_steps_; ++step) {
    hamiltonian_.leapfrog(proposal, step_size);
    double h = hamiltonian_.energy(proposal);
    if (std::isnan(h)) h = std::numeric_limits<double>::infinity();
    if (h - initial_energy > max_energy_error_) {
      result.has_divergence = true;
      break;
    }
  }
  const double proposal_energy = result.has_divergence ? std::numeric_limits<double>::infinity()
                                                       : hamiltonian_.energy(proposal);
  result.accept_stat = std::min(1.0, std::exp(initial_energy - proposal_energy));
  if (!std::isfinite(proposal_energy)) result.accept_stat = 0;
  result.is_accepted = random.uniform() < result.accept_stat;
  if (result.is_accepted) point = proposal;
  result.energy = hamiltonian_.energy(point);
  result.log_density = point.log_density;
  return result;
}

}  // namespace variate
