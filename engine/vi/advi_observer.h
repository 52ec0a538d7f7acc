#pragma once
/// What an ADVI run reports while it runs: the step-size trials, the ELBO estimate of
/// every iteration (in batches) and each evaluation of the convergence rule, plus a stop
/// flag (see advi.h). This is what a live ELBO curve draws.

#include <vector>

#include "engine/vi/advi_convergence.h"

namespace variate {

/// The ELBO after adapt_iter steps with one candidate eta (-inf when the steps or the
/// estimate were not finite).
struct EtaTrial {
  double eta = 0;
  double elbo = 0;
};

/// Consecutive iterations' ELBO estimates, each from that iteration's gradient draws
/// (grad_samples of them, so noisy), before its step.
struct ElboIterations {
  int first_iteration = 1;  ///< 1-based
  std::vector<double> elbo;
};

/// Receives a run's progress. Callbacks come from the thread that runs the fit, in order,
/// one at a time; a reader on another thread (a UI) must synchronize with them itself.
/// Keep them quick: copy and hand over, never block for long.
class AdviObserver {
 public:
  virtual ~AdviObserver() = default;
  /// After each eta tried during adaptation.
  virtual void on_eta_trial(const EtaTrial& trial) {}
  /// Before the optimization starts: the eta it uses, and whether it was adapted. Called
  /// again when a diverged optimization starts over with a smaller eta (iterations then
  /// count from 1 again; a live curve starts afresh).
  virtual void on_eta_chosen(double eta, bool adapted) {}
  /// At least every ~100 ms while iterating, at each evaluation, and at the end.
  virtual void on_iterations(const ElboIterations& batch) {}
  /// Every eval_elbo iterations (after that batch of iterations was handed over).
  virtual void on_evaluation(const ElboEvaluation& evaluation) {}
};

}  // namespace variate
