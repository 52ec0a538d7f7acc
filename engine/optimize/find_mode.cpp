#include "engine/optimize/find_mode.h"

#include <chrono>
#include <cmath>

#include <ATen/ATen.h>

#include "engine/optimize/hessian.h"
#include "engine/optimize/point_objective.h"

namespace variate {
namespace {

constexpr double kDecrementTolerance = 1e-12;
constexpr int kMaxNewtonSteps = 20;

// Damped Newton steps from L-BFGS's end (Boyd & Vandenberghe 2004, Algorithm 9.5).
void polish(const UnconstrainedTarget& target, const LogDensityFunction& log_density, bool jacobian,
            ModeResult& result) {
  std::vector<double>& x = result.lbfgs.x;
  std::vector<double> gradient;
  double lp = log_density(x, gradient);
  for (int step = 0; step <= kMaxNewtonSteps; ++step) {
    at::Tensor hessian;
    try {
      hessian = log_density_hessian(target, x, jacobian).hessian;
    } catch (const ArgumentError&) {
      return;
    }
    const auto [cholesky, info] = at::linalg_cholesky_ex(-hessian);
    if (info.item<int64_t>() != 0) return;  // not a maximum's neighbourhood: leave L-BFGS's point
    const at::Tensor g = at::tensor(gradient, at::kDouble);
    const at::Tensor direction = at::cholesky_solve(g.unsqueeze(1), cholesky).squeeze(1);
    const double decrement = (g * direction).sum().item<double>();
    result.newton_decrement = decrement / 2;
    if (!(decrement / 2 > kDecrementTolerance) || step == kMaxNewtonSteps) return;
    // Backtracking for sufficient increase.
    double t = 1;
    std::vector<double> trial(x.size()), trial_gradient;
    for (int halving = 0; halving < 30; ++halving, t /= 2) {
      for (size_t i = 0; i < x.size(); ++i) trial[i] = x[i] + t * direction[i].item<double>();
      const double trial_lp = log_density(trial, trial_gradient);
      ++result.lbfgs.evaluations;
      if (trial_lp >= lp + 0.25 * t * decrement) {
        x = trial;
        gradient = trial_gradient;
        lp = trial_lp;
        ++result.newton_steps;
        break;
      }
    }
    if (x != trial) return;  // no step increased the density enough
  }
}

}  // namespace

ModeResult find_mode(const UnconstrainedTarget& target, const ModeOptions& options, const std::atomic<bool>* stop,
                     const LbfgsObserver& observer) {
  const auto started = std::chrono::steady_clock::now();
  const LogDensityFunction log_density = point_log_density(target, options.jacobian);
  ModeResult result;
  if (options.init.empty()) {
    result.start = random_start(log_density, target.dimension(), options.init_radius, options.seed, 0, "optimize");
  } else {
    if (static_cast<int64_t>(options.init.size()) != target.dimension()) {
      throw ArgumentError("optimize: the start has " + std::to_string(options.init.size()) +
                          " unconstrained values, the model has " + std::to_string(target.dimension()));
    }
    result.start = options.init;
  }
  result.lbfgs = minimize_lbfgs(negated(log_density), result.start, options.lbfgs,
                                [&](const LbfgsIterate& iterate) {
                                  if (stop && stop->load()) return false;
                                  return !observer || observer(iterate);
                                });
  if (options.newton_polish && converged(result.lbfgs.status) && target.dimension() <= options.max_newton_dimension) {
    polish(target, log_density, options.jacobian, result);
    std::vector<double> gradient;
    result.lbfgs.value = -log_density(result.lbfgs.x, gradient);
    for (double& g : gradient) g = -g;
    result.lbfgs.gradient = gradient;
  }
  result.log_density = -result.lbfgs.value;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace variate
