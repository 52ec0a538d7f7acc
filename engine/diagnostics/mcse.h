#pragma once
/// Monte Carlo standard errors of posterior summaries (Vehtari et al. 2021; posterior).
/// NaN wherever the ESS they use is NaN (see ess.h).

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// sd(draws) / sqrt(ess_mean(draws)): the MCSE of the posterior mean.
double mcse_mean(const Draws& draws);

/// MCSE of the posterior standard deviation, posterior's mcse_sd: the variance of the
/// variance estimate (mu4 - mu2^2) / ess (Kenney & Keeping 1951, p. 141, no normality
/// assumed) with ess = ESS of (x - mean)^2, carried to the sd by the delta method,
/// sqrt(var / (4 mu2)). (rstan 2.21 used a Stirling approximation that assumes
/// normality.)
double mcse_sd(const Draws& draws);

}  // namespace variate::diagnostics
