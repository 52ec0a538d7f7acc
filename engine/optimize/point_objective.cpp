#include "engine/optimize/point_objective.h"

#include <cmath>
#include <limits>
#include <sstream>

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/core/random_stream.h"

namespace variate {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

bool finite(const std::vector<double>& values) {
  for (const double x : values) {
    if (!std::isfinite(x)) return false;
  }
  return true;
}

}  // namespace

LogDensityFunction point_log_density(const UnconstrainedTarget& target, bool jacobian) {
  if (const auto& density = target.point_density()) {
    std::shared_ptr<PointEvaluator> evaluator = density->evaluator();
    return [evaluator, jacobian](const std::vector<double>& q, std::vector<double>& gradient) {
      gradient.assign(q.size(), 0.0);
      const double lp = evaluator->log_density(q.data(), gradient.data(), jacobian);
      return std::isfinite(lp) && finite(gradient) ? lp : kMinusInfinity;
    };
  }
  return [target, jacobian](const std::vector<double>& q, std::vector<double>& gradient) {
    gradient.assign(q.size(), 0.0);
    const auto n = static_cast<int64_t>(q.size());
    const at::Tensor theta = at::from_blob(const_cast<double*>(q.data()), {n}, at::kDouble).clone();
    try {
      const auto [lp, g] = target.log_density_and_gradient(theta, jacobian);
      const double value = lp.item<double>();
      const at::Tensor contiguous = g.contiguous();
      gradient.assign(contiguous.data_ptr<double>(), contiguous.data_ptr<double>() + n);
      return std::isfinite(value) && finite(gradient) ? value : kMinusInfinity;
    } catch (const c10::Error&) {  // e.g. a linear-algebra failure at an extreme point
      return kMinusInfinity;
    }
  };
}

ObjectiveFunction negated(LogDensityFunction log_density) {
  return [log_density = std::move(log_density)](const std::vector<double>& x, std::vector<double>& gradient) {
    const double lp = log_density(x, gradient);
    for (double& g : gradient) g = -g;
    return -lp;
  };
}

std::vector<double> random_start(const LogDensityFunction& log_density, int64_t dimension, double radius,
                                 uint64_t seed, uint64_t stream, const std::string& what) {
  RandomStream random = RandomStream::for_chain(seed, stream);
  std::vector<double> q(static_cast<size_t>(dimension)), gradient;
  for (int attempt = 0; attempt < 100; ++attempt) {
    for (double& x : q) x = radius * (2 * random.uniform() - 1);
    if (std::isfinite(log_density(q, gradient))) return q;
  }
  std::ostringstream message;
  message << what << ": no starting point with a finite log density and gradient in 100 tries (uniform(-"
          << radius << ", " << radius << ") on the unconstrained scale); check the model and its data";
  throw ArgumentError(message.str());
}

}  // namespace variate
