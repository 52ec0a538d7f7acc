#include "engine/mcmc/hamiltonian.h"

#include <cmath>
#include <limits>

#include <ATen/ATen.h>

#include "engine/core/checks.h"

namespace variate {

namespace {

// A point density's evaluator, shared by the copies of one DensityFunction (one chain).
DensityFunction point_density_function(const PointDensity& density) {
  std::shared_ptr<PointEvaluator> evaluator = density.evaluator();
  return [evaluator](const std::vector<double>& q, std::vector<double>& gradient) {
    gradient.resize(q.size());
    double lp = evaluator->log_density(q.data(), gradient.data(), true);
    if (!std::isfinite(lp)) return -std::numeric_limits<double>::infinity();
    for (const double g : gradient) {
      if (!std::isfinite(g)) return -std::numeric_limits<double>::infinity();
    }
    return lp;
  };
}

}  // namespace

DensityFunction make_density_function(const UnconstrainedTarget& target) {
  if (target.point_density()) return point_density_function(*target.point_density());
  return [target](const std::vector<double>& q, std::vector<double>& gradient) {
    const auto n = static_cast<int64_t>(q.size());
    const at::Tensor theta =
        at::from_blob(const_cast<double*>(q.data()), {n}, at::kDouble).clone();
    double lp;
    at::Tensor g;
    try {
      auto result = target.log_density_and_gradient(theta);
      lp = result.first.item<double>();
      g = result.second.contiguous();
    } catch (const c10::Error&) {  // e.g. a linear-algebra failure at an extreme point
      lp = -std::numeric_limits<double>::infinity();
    }
    gradient.assign(q.size(), 0.0);
    if (std::isnan(lp)) lp = -std::numeric_limits<double>::infinity();
    if (!std::isfinite(lp)) return lp;
    const double* data = g.data_ptr<double>();
    for (size_t i = 0; i < q.size(); ++i) {
      gradient[i] = data[i];
      if (!std::isfinite(data[i])) return -std::numeric_limits<double>::infinity();
    }
    return lp;
  };
}

void Hamiltonian::evaluate(PhasePoint& point) const {
  ++evaluations_;
  point.log_density = density_(point.q, point.gradient);
}

double Hamiltonian::energy(const PhasePoint& point) const {
  if (!std::isfinite(point.log_density)) return std::numeric_limits<double>::infinity();
  return -point.log_density + metric_.kinetic_energy(point.p);
}

void Hamiltonian::leapfrog(PhasePoint& point, double step) const {
  const size_t d = point.q.size();
  for (size_t i = 0; i < d; ++i) point.p[i] += 0.5 * step * point.gradient[i];
  metric_.velocity(point.p, velocity_);
  for (size_t i = 0; i < d; ++i) point.q[i] += step * velocity_[i];
  evaluate(point);
  for (size_t i = 0; i < d; ++i) point.p[i] += 0.5 * step * point.gradient[i];
}

}  // namespace variate
