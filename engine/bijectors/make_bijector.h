#pragma once
/// The bijector from unconstrained reals onto a continuous support, as Stan picks the
/// transform from a variable's declared constraint.

#include "engine/bijectors/bijector.h"
#include "engine/core/support.h"

namespace variate::bijectors {

/// real -> Identity, lower_bounded -> LowerBound, upper_bounded -> UpperBound,
/// interval -> Interval, ordered -> Ordered, positive_ordered -> PositiveOrdered,
/// simplex -> Simplex, cholesky_corr -> CholeskyCorr.
/// @throws ArgumentError for a discrete support: "make_bijector: no bijector for the
/// discrete support 'nonnegative_integer'".
BijectorPtr make_bijector(const Support& support);

}  // namespace variate::bijectors
