#pragma once
/// Whether an ADVI run's ELBO was still rising when it stopped: Stan's relative-tolerance
/// rule compares ELBO changes with the ELBO's magnitude, so on a model whose ELBO is in the
/// thousands it fires while the fit is still climbing by several nats per evaluation (the
/// "MEDIAN ELBO CONVERGED" of an absurd fit). This judges the climb against the ELBO
/// estimates' own noise instead: a least-squares line through the last evaluations (since
/// the last step-size change), its rise over them and that rise's standard error.
///
///   const ElboTrend trend = elbo_trend(result.trace);
///   if (trend.still_improving) warn(trend.rise, trend.standard_error);

#include <vector>

#include "engine/vi/advi_convergence.h"

namespace variate {

struct ElboTrend {
  int evaluations = 0;        ///< judged (0: too few to judge, fewer than 4)
  double rise = 0;            ///< the fitted line's rise over them
  double standard_error = 0;  ///< of that rise, from the scatter about the line
  /// rise > 0 and more than 3 standard errors: the ELBO rose beyond its noise.
  bool still_improving = false;
};

/// From the last `window` evaluations of `trace` after the last step reduction.
ElboTrend elbo_trend(const std::vector<ElboEvaluation>& trace, int window = 10);

}  // namespace variate
