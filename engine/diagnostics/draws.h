#pragma once
/// Posterior draws of one scalar quantity, as the convergence diagnostics take them.

#include <vector>

namespace variate::diagnostics {

/// draws[chain][iteration]; every chain has the same length.
using Draws = std::vector<std::vector<double>>;

/// @throws ArgumentError "function: argument 'draws' must be ..." when there is no chain
/// or the chains differ in length (the value reported is the offending chain's length).
void check_draws(const char* function, const Draws& draws);

/// Number of iterations per chain (0 when there is no chain).
std::size_t draws_per_chain(const Draws& draws);

/// Whether every draw is finite (no NaN, no infinity).
bool all_finite(const Draws& draws);

/// Whether max - min is below machine epsilon, posterior's is_constant(): the
/// diagnostics are undefined (NaN) for such draws.
bool is_constant(const Draws& draws);

/// All draws, chain after chain.
std::vector<double> pooled(const Draws& draws);

}  // namespace variate::diagnostics
