// Vehtari et al. (2021), Sec. 3; matches posterior's .split_chains() and rstan 2.21.

#include "engine/diagnostics/split_chains.h"

namespace variate::diagnostics {

Draws split_chains(const Draws& draws) {
  check_draws("split_chains", draws);
  const std::size_t n = draws_per_chain(draws);
  if (n == 1) return draws;
  const std::size_t half = n / 2;
  Draws split(2 * draws.size());
  for (std::size_t c = 0; c < draws.size(); ++c) {
    const auto& chain = draws[c];
    split[c].assign(chain.begin(), chain.begin() + half);
    split[draws.size() + c].assign(chain.end() - half, chain.end());
  }
  return split;
}

}  // namespace variate::diagnostics
