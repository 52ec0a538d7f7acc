#include "engine/diagnostics/draws.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/domain_error.h"

namespace variate::diagnostics {

void check_draws(const char* function, const Draws& draws) {
  // These checks guard indexing, so they ignore ValidationGuard.
  if (draws.empty()) throw DomainError(function, "draws", "at least one chain", 0, {});
  for (std::size_t c = 0; c < draws.size(); ++c) {
    if (draws[c].size() != draws.front().size()) {
      throw DomainError(function, "draws", "chains of equal length", static_cast<double>(draws[c].size()),
                        {static_cast<int64_t>(c)});
    }
  }
}

std::size_t draws_per_chain(const Draws& draws) { return draws.empty() ? 0 : draws.front().size(); }

bool all_finite(const Draws& draws) {
  for (const auto& chain : draws) {
    for (double x : chain) {
      if (!std::isfinite(x)) return false;
    }
  }
  return true;
}

bool is_constant(const Draws& draws) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const auto& chain : draws) {
    for (double x : chain) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  return hi == lo || hi - lo < std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), std::abs(hi));
}

UnitScaled unit_scaled(const Draws& draws) {
  double largest = 0;
  for (const auto& chain : draws) {
    for (double x : chain) {
      if (std::isfinite(x)) largest = std::max(largest, std::abs(x));
    }
  }
  if (largest == 0) return {draws, 1};
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest = f 2^exponent, f in [0.5, 1)
  UnitScaled result{draws, std::ldexp(1.0, exponent)};
  for (auto& chain : result.draws) {
    for (double& x : chain) x = std::ldexp(x, -exponent);
  }
  return result;
}

std::vector<double> pooled(const Draws& draws) {
  std::vector<double> all;
  all.reserve(draws.size() * draws_per_chain(draws));
  for (const auto& chain : draws) all.insert(all.end(), chain.begin(), chain.end());
  return all;
}

}  // namespace variate::diagnostics
