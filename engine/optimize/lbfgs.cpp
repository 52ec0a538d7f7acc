#include "engine/optimize/lbfgs.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <sstream>

#include "engine/core/argument_error.h"

namespace variate {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

double norm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }

// The curvature pairs and the two-loop recursion for H^-1 v.
class InverseHessian {
 public:
  explicit InverseHessian(size_t history) : history_(history) {}

  void clear() { pairs_.clear(); }
  // Pairs without positive curvature are left out: they would make H^-1 indefinite.
  void update(std::vector<double> s, std::vector<double> y) {
    const double sy = dot(s, y);
    if (!(sy > kEpsilon * dot(y, y))) return;
    pairs_.push_back({std::move(s), std::move(y), 1 / sy});
    if (pairs_.size() > history_) pairs_.pop_front();
  }
  std::vector<double> apply(std::vector<double> v) const {
    std::vector<double> alpha(pairs_.size());
    for (size_t k = pairs_.size(); k-- > 0;) {
      const Pair& p = pairs_[k];
      alpha[k] = p.rho * dot(p.s, v);
      for (size_t i = 0; i < v.size(); ++i) v[i] -= alpha[k] * p.y[i];
    }
    if (!pairs_.empty()) {
      const Pair& last = pairs_.back();
      const double gamma = 1 / (last.rho * dot(last.y, last.y));
      for (double& x : v) x *= gamma;
    }
    for (size_t k = 0; k < pairs_.size(); ++k) {
      const Pair& p = pairs_[k];
      const double beta = p.rho * dot(p.y, v);
      for (size_t i = 0; i < v.size(); ++i) v[i] += (alpha[k] - beta) * p.s[i];
    }
    return v;
  }
  bool empty() const { return pairs_.empty(); }

 private:
  struct Pair {
    std::vector<double> s, y;
    double rho;
  };
  size_t history_;
  std::deque<Pair> pairs_;
};

}  // namespace

bool converged(LbfgsStatus status) {
  return status != LbfgsStatus::max_iterations && status != LbfgsStatus::line_search_failed &&
         status != LbfgsStatus::stopped;
}

std::string describe(LbfgsStatus status) {
  switch (status) {
    case LbfgsStatus::converged_objective:
      return "Convergence detected: absolute change in objective function was below tolerance";
    case LbfgsStatus::converged_relative_objective:
      return "Convergence detected: relative change in objective function was below tolerance";
    case LbfgsStatus::converged_gradient: return "Convergence detected: gradient norm is below tolerance";
    case LbfgsStatus::converged_relative_gradient:
      return "Convergence detected: relative gradient magnitude is below tolerance";
    case LbfgsStatus::converged_parameters:
      return "Convergence detected: absolute parameter change was below tolerance";
    case LbfgsStatus::max_iterations: return "Maximum number of iterations hit, may not be at an optima";
    case LbfgsStatus::line_search_failed:
      return "Line search failed to achieve a sufficient decrease, no more progress can be made";
    case LbfgsStatus::stopped: return "Stopped";
  }
  return "unknown";
}

LbfgsResult minimize_lbfgs(const ObjectiveFunction& f, std::vector<double> x0, const LbfgsOptions& options,
                           const LbfgsObserver& observer) {
  LinePoint current;
  current.x = std::move(x0);
  current.gradient.assign(current.x.size(), 0.0);
  current.value = f(current.x, current.gradient);
  LbfgsResult result;
  result.evaluations = 1;
  if (!std::isfinite(current.value) || !std::isfinite(norm(current.gradient))) {
    std::ostringstream message;
    message << "L-BFGS: the objective or its gradient is not finite at the start (value " << current.value << ")";
    throw ArgumentError(message.str());
  }
  const auto finish = [&](LbfgsStatus status) {
    result.status = status;
    result.x = current.x;
    result.value = current.value;
    result.gradient = current.gradient;
    return result;
  };
  const auto report = [&] {
    return !observer || observer({result.iterations, current.x, current.value, current.gradient, result.evaluations});
  };
  if (!report()) return finish(LbfgsStatus::stopped);
  if (norm(current.gradient) < options.tol_grad()) return finish(LbfgsStatus::converged_gradient);

  InverseHessian inverse_hessian(static_cast<size_t>(options.history_size()));
  const size_t d = current.x.size();
  while (result.iterations < options.max_iterations()) {
    LineSearchResult search;
    // Along the quasi-Newton direction; after a failure, along the gradient with no history.
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::vector<double> direction = inverse_hessian.apply(current.gradient);
      for (double& x : direction) x = -x;
      double slope = dot(direction, current.gradient);
      if (!(slope < 0)) {  // not a descent direction: use the gradient
        inverse_hessian.clear();
        direction = current.gradient;
        for (double& x : direction) x = -x;
        slope = dot(direction, current.gradient);
      }
      current.slope = slope;
      current.alpha = 0;
      // Without curvature pairs the direction is the gradient, whose length says nothing
      // about how far to go: the trial step is at most 1 long (as L-BFGS-B's first step),
      // so that a huge gradient (a scale parameter far from its data's scale) does not
      // throw the point to where the density is flat, the line search lengthening it as
      // needed. On earn_height a step of 1e9 made sigma 1e261, where the relative
      // gradient test then stops falsely.
      const bool steepest = inverse_hessian.empty();
      const double alpha = steepest ? std::min(options.init_alpha(), 1 / norm(direction)) : 1.0;
      search = strong_wolfe_search(f, current, direction, alpha);
      result.evaluations += search.evaluations;
      if (search.point.alpha > 0 || steepest) break;
      inverse_hessian.clear();
    }
    if (!(search.point.alpha > 0)) return finish(LbfgsStatus::line_search_failed);

    LinePoint next = std::move(search.point);
    std::vector<double> s(d), y(d);
    for (size_t i = 0; i < d; ++i) {
      s[i] = next.x[i] - current.x[i];
      y[i] = next.gradient[i] - current.gradient[i];
    }
    const double previous_value = current.value;
    current = std::move(next);
    ++result.iterations;
    inverse_hessian.update(s, y);
    if (!report()) return finish(LbfgsStatus::stopped);

    const double change = std::abs(current.value - previous_value);
    if (change < options.tol_obj()) return finish(LbfgsStatus::converged_objective);
    const double scale = std::max({std::abs(previous_value), std::abs(current.value), kEpsilon});
    if (change / scale < options.tol_rel_obj() * kEpsilon) return finish(LbfgsStatus::converged_relative_objective);
    if (norm(current.gradient) < options.tol_grad()) return finish(LbfgsStatus::converged_gradient);
    const double relative_gradient =
        dot(current.gradient, inverse_hessian.apply(current.gradient)) / std::max(std::abs(current.value), kEpsilon);
    if (relative_gradient < options.tol_rel_grad() * kEpsilon) {
      return finish(LbfgsStatus::converged_relative_gradient);
    }
    if (norm(s) < options.tol_param()) return finish(LbfgsStatus::converged_parameters);
  }
  return finish(LbfgsStatus::max_iterations);
}

}  // namespace variate
