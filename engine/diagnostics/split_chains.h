#pragma once
/// Splitting each chain into halves, so that R-hat and ESS see within-chain drift as
/// disagreement between chains (Vehtari et al. 2021, Sec. 3; Gelman et al., BDA3, 11.4).

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// Each chain of n draws becomes two chains of floor(n / 2): the first halves of all
/// chains, then the second halves. For odd n the middle draw is dropped, as in Stan and
/// posterior; a chain of one draw is returned unsplit.
/// @throws ArgumentError as check_draws.
Draws split_chains(const Draws& draws);

}  // namespace variate::diagnostics
