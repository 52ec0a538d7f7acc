#pragma once
/// The standard normal quantile function Phi^-1, to full double precision.

namespace variate::diagnostics {

/// Phi^-1(p) for p in (0, 1); -inf at 0, +inf at 1, NaN outside [0, 1].
double inverse_normal_cdf(double p);

}  // namespace variate::diagnostics
