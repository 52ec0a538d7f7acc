#pragma once
/// Stan's stopping rule for ADVI (stan::variational::advi::stochastic_gradient_ascent):
/// every eval_elbo iterations the ELBO is estimated and its relative change
/// |(previous - current) / current| goes into a circular buffer of
/// max(0.1 * iter / eval_elbo, 2) entries; the run has converged when the mean or the
/// median of the buffer is below tol_rel_obj. The first change is 1 (the previous ELBO
/// counts as 0), as in Stan, so the mean rule cannot fire before that entry leaves the
/// buffer.

#include <cstddef>
#include <deque>

namespace variate {

/// One point of the ELBO trace: an evaluation with elbo_samples draws.
struct ElboEvaluation {
  int iteration = 0;  ///< 1-based iteration after which the ELBO was evaluated
  double eta = 0;     ///< the step size of the iterations before it (set by ADVI)
  double elbo = 0;
  double relative_change = 0;         ///< |(previous - elbo) / elbo|; +inf if not finite
  double mean_relative_change = 0;    ///< over the circular buffer
  double median_relative_change = 0;  ///< over the buffer (the upper median, as Stan)
  bool mean_converged = false;        ///< mean < tol_rel_obj
  bool median_converged = false;      ///< median < tol_rel_obj
  /// Set by ADVI when this evaluation found a plateau and divided eta by 10 (the rule
  /// then starts afresh) instead of ending the run.
  bool step_reduced = false;
  bool converged() const { return mean_converged || median_converged; }
};

class ElboConvergence {
 public:
  /// @throws ArgumentError unless tol_rel_obj > 0 and window >= 1.
  ElboConvergence(double tol_rel_obj, size_t window);
  /// Stan's window for a run of `iter` iterations evaluated every `eval_elbo`.
  static size_t stan_window(int iter, int eval_elbo);

  /// Records the ELBO evaluated after `iteration` and says where the rule stands.
  ElboEvaluation add(int iteration, double elbo);

 private:
  double tol_rel_obj_;
  size_t window_;
  double previous_ = 0;
  std::deque<double> changes_;
};

}  // namespace variate
