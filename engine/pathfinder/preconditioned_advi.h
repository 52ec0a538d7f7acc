#pragma once
/// ADVI that converges on strongly correlated and badly scaled posteriors: a single
/// Pathfinder path (pathfinder.h) finds a Gaussian estimate of the posterior; where the
/// Hessian at the end of its L-BFGS run is negative definite, the Laplace approximation
/// there (optimize/laplace.h, one Newton step on) is a second candidate, and the candidate with the higher
/// ELBO (100 draws) wins: Pathfinder's low-rank covariance misses curvature on posteriors
/// with many strongly correlated parameters, the Laplace approximation is exact for a
/// Gaussian posterior, and Pathfinder's is the one that exists where there is no mode (a
/// funnel). ADVI starts at the winner and optimizes in coordinates whitened by its
/// covariance (vi/whitened_gaussian.h). The fitted family is the one asked for (mean-field stays
/// mean-field); only the optimizer's coordinates change. This is what `variate fit` and
/// the studio run by default.
///
/// Why: for a Gaussian posterior the mean-field optimum has the exact means, yet plain
/// ADVI (Stan's included) stops far from them on regressions with unstandardized
/// predictors or interactions: in the model's coordinates the ELBO is a ridge thousands of
/// times longer than it is wide, and stochastic gradient steps crawl along it until the
/// relative-change rule mistakes the crawl for convergence. Pathfinder's estimate costs
/// about as many gradients as a few hundred ADVI steps (Zhang et al. 2022 report 1-2
/// orders of magnitude fewer than ADVI's).

#include <atomic>
#include <string>

#include "engine/core/lockstep.h"
#include "engine/vi/advi.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

/// fit.start is "pathfinder" or "laplace", the estimate used. Where Pathfinder finds none (its
/// note in `fallback`, when given), this is plain advi() from a random start. Pathfinder's
/// gradient evaluations and time count in the result's adaptation figures.
AdviFit preconditioned_advi(const UnconstrainedTarget& target, const AdviOptions& options,
                            AdviObserver* observer = nullptr, const std::atomic<bool>* stop = nullptr,
                            Lockstep* lockstep = nullptr, std::string* fallback = nullptr);

}  // namespace variate
