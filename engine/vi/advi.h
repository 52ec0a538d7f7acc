#pragma once
/// Automatic differentiation variational inference (Kucukelbir, Tran, Ranganath, Gelman &
/// Blei 2017, "Automatic Differentiation Variational Inference", JMLR 18, Alg. 1), as
/// Stan's stan::variational::advi runs it: the ELBO of a variational family on the
/// model's unconstrained scale is maximized by stochastic gradient ascent with
/// reparameterized gradients (elbo.h); the step size eta is picked from
/// {100, 10, 1, 0.1, 0.01} by a short trial of each; the run stops by Stan's relative
/// tolerance rule (advi_convergence.h) or after `iter` iterations.
///
/// Deviations from Stan, each because Stan's choice failed here on posteriors with known
/// answers (a conjugate normal model's sds, sblrc's posterior sds of 0.001, kidiq):
/// - the optimizer is Adam with learning rate eta (its second-moment memory set to ten
///   steps, like Stan's sequence) instead of Stan's adaGrad-like sequence, and its steps
///   are scaled by the family's step_scales() (the built-in Gaussians' means move relative
///   to q's standard deviations near the optimum; see Adam::step);
/// - gradients "stick the landing" (Roeder et al. 2017; elbo.h) by default;
/// - instead of decaying eta as t^-1/2, eta stays constant until a plateau (the
///   tol_rel_obj rule fires, or no evaluation beats the best ELBO for a window of them),
///   then is divided by 10 and the rule starts afresh, step_reductions times; the run
///   ends when the rule fires after the last reduction;
/// - the result, and what each evaluation judges, is the average of the last eval_elbo
///   iterates (Polyak averaging);
/// - an optimization whose ELBO diverges starts over with eta / 10 (at most 3 times).
///
/// Any VariationalFamily can be fitted, hand-written programs included; advi() fits the
/// built-in mean-field or full-rank Gaussian.
///
///   auto fit = advi(model.target(), AdviOptions().seed(1));
///   auto draws = sample_approximation(model.target(), *fit.family, 1000, generator);

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/lockstep.h"
#include "engine/vi/advi_convergence.h"
#include "engine/vi/advi_observer.h"
#include "engine/vi/advi_options.h"
#include "engine/target/unconstrained_target.h"
#include "engine/vi/variational_program.h"

namespace variate {

enum class AdviStatus {
  converged,          ///< the tol_rel_obj rule fired (after the last step reduction)
  max_iterations,     ///< iter iterations without convergence
  stopped,            ///< the stop flag was set
  diverged,           ///< an ELBO evaluation was not finite, or most steps of a window
                      ///< failed, even after the restarts with smaller eta
  adaptation_failed,  ///< no candidate eta improved on the initial ELBO
};

/// "converged", "max_iterations", ... (CmdStan's messages are longer).
std::string to_string(AdviStatus status);

struct AdviResult {
  AdviStatus status = AdviStatus::max_iterations;
  double eta = 0;  ///< the step size the optimization used (NaN if it did not start)
  bool eta_adapted = false;
  /// Times the optimization diverged and started again from the initial family with
  /// eta / 10 (at most 3); each restart is announced by on_eta_chosen() and its
  /// iterations count from 1 again.
  int restarts = 0;
  /// Times the last optimization divided eta by 10 at a plateau (AdviOptions::
  /// step_reductions); its final step size is eta / 10^step_reductions.
  int step_reductions = 0;
  std::vector<EtaTrial> eta_trials;
  double initial_elbo = 0;
  int iterations = 0;  ///< iterations of the last optimization (adaptation not counted)
  /// The last evaluation's ELBO (the initial one if there was none).
  double elbo = 0;
  std::vector<ElboEvaluation> trace;  ///< of the last optimization
  /// Steps left out because their gradient estimate was not finite.
  int skipped_steps = 0;
  /// Model gradients evaluated, adaptation included (one per draw per step).
  long gradient_evaluations = 0;
  double seconds_adaptation = 0;
  double seconds_optimization = 0;
};

/// Fits `family` to `target` in place (its parameters end at the fitted values; after a
/// failed adaptation, at their initial values). Random draws come from one generator
/// seeded with options.seed(), so the same seed and start give the same trace. The
/// initial ELBO is computed with argument validation on; after that, numerical trouble is
/// data (skipped steps, a diverged status), not an exception.
/// @throws ArgumentError if the family does not fit the model (see draw_variational) or
/// the initial ELBO is not finite.
AdviResult fit_variational(const UnconstrainedTarget& target, VariationalFamily& family,
                           const AdviOptions& options, AdviObserver* observer = nullptr,
                           const std::atomic<bool>* stop = nullptr, Lockstep* lockstep = nullptr);

/// A built-in family and how its fit went.
struct AdviFit {
  std::shared_ptr<VariationalFamily> family;  ///< MeanFieldGaussian or FullRankGaussian
  AdviResult result;
  /// Where the optimization started: "random" (Stan's uniform start), or the Gaussian
  /// estimate that started and whitened it ("pathfinder", pathfinder/preconditioned_advi.h).
  std::string start = "random";
};

/// A Gaussian estimate of the posterior on the unconstrained scale.
struct GaussianEstimate {
  at::Tensor mean;        ///< [d]
  at::Tensor covariance;  ///< [d, d], positive definite
};

/// ADVI with options.method()'s Gaussian family, its mean started uniform on
/// (-init_radius, init_radius) where the log density and gradient are finite (at most
/// 100 tries, as Stan's random inits).
/// With a `lockstep` (a run several processes make together), the processes agree on every
/// stop and compare each step's ELBO estimate.
/// @throws ArgumentError if no such start is found, or as fit_variational().
AdviFit advi(const UnconstrainedTarget& target, const AdviOptions& options,
             AdviObserver* observer = nullptr, const std::atomic<bool>* stop = nullptr,
             Lockstep* lockstep = nullptr);

/// ADVI with options.method()'s family started at `estimate` and optimized in coordinates
/// whitened by its covariance (whitened_gaussian.h); the fit is returned as the built-in
/// family. fit.start is left "random" for the caller to name the estimate.
/// @throws ArgumentError if the covariance is not positive definite, or as fit_variational().
AdviFit advi_whitened(const UnconstrainedTarget& target, const AdviOptions& options, const GaussianEstimate& estimate,
                      AdviObserver* observer = nullptr, const std::atomic<bool>* stop = nullptr,
                      Lockstep* lockstep = nullptr);

}  // namespace variate
