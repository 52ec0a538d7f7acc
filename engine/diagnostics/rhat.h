#pragma once
/// Potential scale reduction R-hat (Vehtari, Gelman, Simpson, Carpenter & Buerkner 2021).
///
/// NaN stands for posterior's NA: returned when a draw is NaN or infinite, when the draws
/// are constant (max - min below machine epsilon), or when the split chains have fewer
/// than 2 draws each (fewer than 4 draws per chain), where a within-chain variance does
/// not exist. (posterior ranks infinite draws and returns a number; here every diagnostic
/// is NaN once a draw is not finite.)

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// The classic R-hat of the chains exactly as given, sqrt((W (n-1)/n + B/n) / W)
/// (BDA3 eq. 11.4; posterior's rhat_basic(split = FALSE)).
/// @throws ArgumentError as check_draws.
double rhat_basic(const Draws& chains);

/// Rank-normalized split R-hat: catches differences in location between chains.
double rhat_bulk(const Draws& draws);

/// Rank-normalized split R-hat of the draws folded about their median, |x - median|:
/// catches differences in scale between chains.
double rhat_tail(const Draws& draws);

/// max(rhat_bulk, rhat_tail), the R-hat of posterior, Stan (>= 2.33) and ArviZ; values
/// above 1.01 indicate the chains have not mixed.
double rhat(const Draws& draws);

}  // namespace variate::diagnostics
