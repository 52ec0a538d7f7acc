#pragma once
/// A Categorical row of logits normalized as at::log_softmax normalizes it: what the
/// Categorical sink (discrete_log_densities.cpp) and the pointwise log likelihood
/// (pointwise_log_densities.cpp) both take, log p_j = (x_j - max) - log sum exp(x - max).

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace variate::tape::families {

/// stats[0] = max of x[0..K), stats[1] = log sum exp(x - max).
inline void log_softmax_stats(const double* x, int64_t K, double* stats) {
  const double max = *std::max_element(x, x + K);
  double sum = 0;
  for (int64_t j = 0; j < K; ++j) sum += std::exp(x[j] - max);
  stats[0] = max;
  stats[1] = std::log(sum);
}

}  // namespace variate::tape::families
