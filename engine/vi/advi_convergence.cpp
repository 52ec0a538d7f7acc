#include "engine/vi/advi_convergence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "engine/core/checks.h"

namespace variate {

ElboConvergence::ElboConvergence(double tol_rel_obj, size_t window)
    : tol_rel_obj_(tol_rel_obj), window_(window) {
  if (!(tol_rel_obj > 0)) {
    throw ArgumentError("ElboConvergence: argument 'tol_rel_obj' must be positive, got " +
                        std::to_string(tol_rel_obj));
  }
  if (window < 1) throw ArgumentError("ElboConvergence: argument 'window' must be at least 1, got 0");
}

size_t ElboConvergence::stan_window(int iter, int eval_elbo) {
  return static_cast<size_t>(std::max(0.1 * iter / eval_elbo, 2.0));
}

ElboEvaluation ElboConvergence::add(int iteration, double elbo) {
  double change = std::fabs((previous_ - elbo) / elbo);
  // A NaN would make the mean and the median meaningless rather than large.
  if (!std::isfinite(change)) change = std::numeric_limits<double>::infinity();
  previous_ = elbo;
  changes_.push_back(change);
  if (changes_.size() > window_) changes_.pop_front();

  ElboEvaluation e;
  e.iteration = iteration;
  e.elbo = elbo;
  e.relative_change = change;
  e.mean_relative_change =
      std::accumulate(changes_.begin(), changes_.end(), 0.0) / static_cast<double>(changes_.size());
  std::vector<double> sorted(changes_.begin(), changes_.end());
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  e.median_relative_change = *middle;
  e.mean_converged = e.mean_relative_change < tol_rel_obj_;
  e.median_converged = e.median_relative_change < tol_rel_obj_;
  return e;
}

}  // namespace variate
