#pragma once
/// The log masses of Bernoulli and Binomial, less the terms of the data alone, as their
/// distributions/*.cpp compute them: what the discrete sinks (discrete_log_densities.cpp)
/// sum and the pointwise log likelihood (pointwise_log_densities.cpp) takes one by one.

#include <algorithm>
#include <cmath>

namespace variate::tape::families {

// at::log_sigmoid and its backward, as LibTorch's CPU kernels compute them.
inline double log_sigmoid(double x) { return std::min(x, 0.0) - std::log1p(std::exp(-std::abs(x))); }

inline double log_sigmoid_derivative(double x) {
  const double z = std::exp(-std::abs(x));
  return x < 0 ? 1 - z / (1 + z) : z / (1 + z);
}

// at::softplus(x, 1, 40) (Bernoulli's threshold) and its backward.
inline double softplus(double x) { return x > 40 ? x : std::log1p(std::exp(x)); }

inline double softplus_derivative(double x) {
  const double z = std::exp(x);
  return x > 40 ? 1 : z / (z + 1);
}

// The log mass of one element (k successes and f failures, or k events; count = 1), or
// of all elements at once through their totals (count = n), at one parameter value
// theta; d receives its partial in theta. Each follows its family's log_prob, less the
// terms of the data alone. Poisson's are poisson_family.h's, which a Mixture's component
// shares.
struct BinomialProbability {  // Bernoulli(p) too: N = 1
  static double term(double k, double f, double, double theta, double& d) {
    // k log theta is 0 where k = 0, even at theta = 0, and so is its gradient.
    const double successes = k > 0 ? k * std::log(theta) : 0.0;
    const double failures = f > 0 ? f * std::log1p(-theta) : 0.0;
    d = (k > 0 ? k / theta : 0.0) - (f > 0 ? f / (1 - theta) : 0.0);
    return successes + failures;
  }
};

struct BinomialLogit {
  static double term(double k, double f, double, double eta, double& d) {
    d = k * log_sigmoid_derivative(eta) - f * log_sigmoid_derivative(-eta);
    return k * log_sigmoid(eta) + f * log_sigmoid(-eta);
  }
};

struct BernoulliLogit {  // y eta - softplus(eta), Stan's bernoulli_logit
  static double term(double k, double, double count, double eta, double& d) {
    d = k - count * softplus_derivative(eta);
    return k * eta - count * softplus(eta);
  }
};

}  // namespace variate::tape::families
