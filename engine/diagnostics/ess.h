#pragma once
/// Effective sample sizes (Vehtari, Gelman, Simpson, Carpenter & Buerkner 2021), with
/// posterior's and Stan's definitions.
///
/// NaN stands for posterior's NA: returned when a draw is NaN or infinite, when the draws
/// are constant (max - min below machine epsilon), or when the (split) chains have fewer
/// than 3 draws each. (posterior's ess_bulk ranks infinite draws and returns a number;
/// here every diagnostic is NaN once a draw is not finite.)

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// Multi-chain ESS of the chains exactly as given (posterior's ess_basic(split = FALSE)):
/// autocorrelations combined across chains through the within-chain variance and var+
/// (BDA3 eq. 11.7), truncated by Geyer's initial positive sequence at the first negative
/// pair sum and made monotone, and tau bounded below by 1/log10(S) so that ESS is at most
/// S log10(S). The callers below split the chains first.
/// @throws ArgumentError as check_draws.
double ess(const Draws& chains);

/// ESS of the rank-normalized split chains (posterior's ess_bulk).
double ess_bulk(const Draws& draws);

/// min(ESS of I(x <= q05), ESS of I(x <= q95)) on split chains, q type-7 quantiles of all
/// draws (posterior's ess_tail).
double ess_tail(const Draws& draws);

/// ESS of the indicator I(x <= quantile(prob)) on split chains (posterior's ess_quantile).
/// @throws ArgumentError if prob is outside [0, 1].
double ess_quantile(const Draws& draws, double prob);

/// ESS of the split chains themselves: the ESS of the mean (posterior's ess_mean).
double ess_mean(const Draws& draws);

/// ESS of the squared centered draws (x - mean)^2 on split chains: the ESS that
/// posterior's mcse_sd uses. (posterior 1.6's ess_sd uses |x - mean| instead; rstan
/// 2.21's, min(ess_mean(x), ess_mean(x^2)).)
double ess_sd(const Draws& draws);

}  // namespace variate::diagnostics
