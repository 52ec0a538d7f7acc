#pragma once
/// Poisson(lambda) and Poisson's log-rate form, as distributions/poisson.cpp. Its sink
/// (discrete_log_densities.cpp) folds log k! and the support while the tape is built and
/// scores the rest by a Mass; `at`, for a Mixture's component, is the whole log mass of one
/// count from the same Mass.

#include <cmath>
#include <tuple>

#include "engine/tape/densities/pointwise_family.h"

namespace variate::tape::families {

/// Poisson's log mass less log k! at a rate: `term(k, f, count, lambda, d)` of one count
/// k (count 1) or of `count` counts through their total k, with d its partial in lambda
/// (f, the discrete sinks' failures, is unused).
struct PoissonRateMass {
  static double term(double k, double, double count, double lambda, double& d) {
    d = (k > 0 ? k / lambda : 0.0) - count;
    return (k > 0 ? k * std::log(lambda) : 0.0) - count * lambda;
  }
};

/// The same at a log rate alpha.
struct PoissonLogRateMass {
  static double term(double k, double, double count, double alpha, double& d) {
    const double rate = std::exp(alpha);
    d = k - count * rate;
    return k * alpha - count * rate;
  }
};

/// One count's log mass, log k! included; a value is data (no partial in it).
template <class Mass>
struct Poisson {
  using Arguments = std::tuple<Plain>;
  static Element at(double k, const Plain& theta) {
    if (!is_count(k)) return outside_support();
    double d = 0;
    const double lp = Mass::term(k, k, 1.0, theta.value, d) - std::lgamma(k + 1);
    return {lp, 0.0, {d}};
  }
};

using PoissonRate = Poisson<PoissonRateMass>;
using PoissonLogRate = Poisson<PoissonLogRateMass>;

}  // namespace variate::tape::families
