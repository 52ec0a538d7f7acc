// Vehtari et al. (2021), Sec. 4.3 and posterior's mcse_mean()/mcse_sd(); Kenney &
// Keeping (1951), Mathematics of Statistics II, p. 141, for the variance of the sample
// variance.

#include "engine/diagnostics/mcse.h"

#include <cmath>
#include <numeric>

#include "engine/diagnostics/ess.h"

namespace variate::diagnostics {
namespace {

struct Moments {
  double mean = 0;
  double m2 = 0;  // (1/S) sum (x - mean)^2
  double m4 = 0;  // (1/S) sum (x - mean)^4
  double count = 0;
};

Moments moments(const Draws& draws) {
  Moments result;
  double sum = 0;
  for (const auto& chain : draws) {
    sum += std::accumulate(chain.begin(), chain.end(), 0.0);
    result.count += static_cast<double>(chain.size());
  }
  result.mean = sum / result.count;
  for (const auto& chain : draws) {
    for (double x : chain) {
      const double d2 = (x - result.mean) * (x - result.mean);
      result.m2 += d2;
      result.m4 += d2 * d2;
    }
  }
  result.m2 /= result.count;
  result.m4 /= result.count;
  return result;
}

}  // namespace

// Moments of draws near 3e200 overflow, of draws near 1e-200 underflow: both are taken
// of the unit-scaled draws, and the MCSE scaled back.
double mcse_mean(const Draws& draws) {
  const UnitScaled unit = unit_scaled(draws);
  const double ess = ess_mean(unit.draws);
  const Moments m = moments(unit.draws);
  const double sd = std::sqrt(m.m2 * m.count / (m.count - 1));
  return sd / std::sqrt(ess) * unit.scale;
}

double mcse_sd(const Draws& draws) {
  const UnitScaled unit = unit_scaled(draws);
  const double ess = ess_sd(unit.draws);
  const Moments m = moments(unit.draws);
  const double var_of_var = (m.m4 - m.m2 * m.m2) / ess;
  return std::sqrt(var_of_var / m.m2 / 4) * unit.scale;
}

}  // namespace variate::diagnostics
