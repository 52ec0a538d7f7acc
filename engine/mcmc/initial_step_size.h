#pragma once
/// Stan's heuristic for a first step size (base_hmc::init_stepsize): from `step_size`,
/// double or halve it until the acceptance of one leapfrog step from `start` (with a fresh
/// momentum) crosses 0.8.

#include "engine/core/random_stream.h"
#include "engine/mcmc/hamiltonian.h"

namespace variate {

/// @throws ArgumentError when the step size grows past 1e7 (an improper posterior) or
/// shrinks to 0.
double initial_step_size(const Hamiltonian& hamiltonian, const PhasePoint& start, double step_size,
                         RandomStream& random);

}  // namespace variate
