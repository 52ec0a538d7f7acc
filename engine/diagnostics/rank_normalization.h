#pragma once
/// Rank normalization of draws (Vehtari et al. 2021, Sec. 4.1): each draw replaced by the
/// normal quantile of its rank among all draws of all chains, which makes R-hat and ESS
/// defined, and meaningful, for heavy-tailed and non-normal posteriors.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::diagnostics {

/// Blom's (1958) fractional offset, used by posterior (>= 1.5), Stan (>= 2.33) and ArviZ.
/// rstan 2.21 and the paper's first version use 1/2.
inline constexpr double kBlomOffset = 3.0 / 8.0;

/// The draws sorted once, from which both the rank-normalized draws and the
/// rank-normalized folded draws |x - center| follow in linear time (folding about a
/// point keeps the order on each side of it, so the two sides merge).
///
///   Ranking ranking(split_chains(draws));
///   Draws bulk = ranking.normalized();
///   Draws tail = ranking.folded_normalized(median(draws));
class Ranking {
 public:
  /// @throws ArgumentError as check_draws.
  explicit Ranking(const Draws& draws, double offset = kBlomOffset);

  /// z = Phi^-1((r - offset) / (S - 2 offset + 1)), r the rank of a draw among all S
  /// draws (ties get their average rank), in the shape of the draws. NaN everywhere when
  /// a draw is NaN.
  Draws normalized() const;

  /// The same for |x - center|; NaN everywhere when a draw is NaN or center is not finite.
  Draws folded_normalized(double center) const;

 private:
  // Positions (chain * n + iteration) in increasing order, and their values.
  Draws ranked_from(const std::vector<std::uint64_t>& order,
                    const std::vector<double>& values) const;
  double z_of_rank(double rank) const;

  std::size_t chains_;
  std::size_t n_;
  double offset_;
  bool has_nan_ = false;
  std::vector<std::pair<double, std::uint64_t>> sorted_;
  std::vector<double> z_by_rank_;  // z for the integer ranks 1..S (index r - 1)
};

/// Ranking(draws, offset).normalized().
/// @throws ArgumentError as check_draws.
Draws rank_normalize(const Draws& draws, double offset = kBlomOffset);

}  // namespace variate::diagnostics
