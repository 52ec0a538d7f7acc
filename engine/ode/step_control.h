#pragma once
/// What the adaptive solvers share: their arguments' checks, the error norm their step
/// control reads, and the message of a step limit reached.

#include <string>
#include <vector>

#include "engine/ode/ode_system.h"

namespace variate::ode {

/// @throws std::invalid_argument for an initial state of the wrong size, output times not
/// increasing after t0, or tolerances and a step limit that are not positive.
void check_arguments(const OdeSystem& system, double t0, const std::vector<double>& y0,
                     const std::vector<double>& times, const OdeTolerances& tolerances);

/// The largest component of `v` over absolute + relative * |y|: every state and every
/// sensitivity held to the tolerances, as Stan's solvers hold them (Boost odeint's error
/// checker; a root mean square would let the many sensitivities dilute the states' error).
double scaled_norm(const std::vector<double>& v, const std::vector<double>& y, const OdeTolerances& tolerances);

/// The StepLimitError of `solver` between t and end, with what to try instead.
StepLimitError step_limit_reached(const char* solver, int64_t max_steps, double t, double end, const char* advice);

/// @throws StepLimitError when a step `h` at t is too short to advance t in double
/// precision: the right-hand side is not finite there, or the solver cannot control the
/// error (a singular system). Without it such a solve would spend its whole step limit.
void check_step_size(const char* solver, double h, double t);

}  // namespace variate::ode
