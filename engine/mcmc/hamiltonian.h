#pragma once
/// The Hamiltonian system HMC simulates: a phase point (position q, momentum p), the
/// potential -log p(q), the metric's kinetic energy, and the leapfrog integrator
/// (Neal 2011; Betancourt 2017, Sec. 5.1; Stan's expl_leapfrog).

#include <functional>
#include <vector>

#include "engine/mcmc/euclidean_metric.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

/// log p(q) and its gradient (written into `gradient`); -inf where the density vanishes
/// or cannot be evaluated.
using DensityFunction = std::function<double(const std::vector<double>& q, std::vector<double>& gradient)>;

/// The target's log density with the Jacobian, as samplers need it. Numerical failures
/// (NaN, a failed Cholesky, an overflow) become -inf: data for the sampler, not errors.
DensityFunction make_density_function(const UnconstrainedTarget& target);

struct PhasePoint {
  std::vector<double> q;
  std::vector<double> p;
  std::vector<double> gradient;  // of log p at q
  double log_density = 0;
};

class Hamiltonian {
 public:
  Hamiltonian(DensityFunction density, const EuclideanMetric& metric)
      : density_(std::move(density)), metric_(metric) {}

  /// Evaluates log p and its gradient at point.q.
  void evaluate(PhasePoint& point) const;
  /// H = -log p(q) + K(p); +inf when log p is not finite.
  double energy(const PhasePoint& point) const;
  /// One leapfrog step of size `step` (negative to go backwards in time).
  void leapfrog(PhasePoint& point, double step) const;
  const EuclideanMetric& metric() const { return metric_; }
  /// Gradient evaluations so far.
  long gradient_evaluations() const { return evaluations_; }

 private:
  DensityFunction density_;
  const EuclideanMetric& metric_;
  mutable std::vector<double> velocity_;
  mutable long evaluations_ = 0;
};

}  // namespace variate
