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

/// Whether max - min is below machine epsilon relative to the largest magnitude: the
/// diagnostics are undefined (NaN) for such draws. posterior's is_constant() takes the
/// epsilon absolutely, which calls every set of draws near 1e-200 constant; relative, the
/// verdict does not depend on the units.
bool is_constant(const Draws& draws);

/// Draws divided by the power of two that brings their largest magnitude into [0.5, 1),
/// and that power. Sums of squares of the scaled draws neither overflow (draws near 3e200)
/// nor underflow (near 1e-200); the division and the multiplication back by `scale` are
/// exact, so a diagnostic that does not depend on units is unchanged, and one that does
/// (a mean, a standard deviation, an MCSE) is `scale` times its value on the scaled draws.
struct UnitScaled {
  Draws draws;
  double scale = 1;
};
UnitScaled unit_scaled(const Draws& draws);

/// All draws, chain after chain.
std::vector<double> pooled(const Draws& draws);

}  // namespace variate::diagnostics
