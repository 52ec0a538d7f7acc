#pragma once
/// Options of an ADVI run, with CmdStan's defaults (method=variational), set by chainable
/// setters that validate:
///
///   AdviOptions().method(AdviMethod::fullrank).seed(1).tol_rel_obj(0.001)

#include <cstdint>
#include <string>

#include "engine/core/checked_option.h"

namespace variate {

enum class AdviMethod { meanfield, fullrank };

/// "meanfield" or "fullrank".
std::string to_string(AdviMethod method);
/// @throws ArgumentError for any other name.
AdviMethod advi_method_from_string(const std::string& name);

class AdviOptions {
 public:
#define VARIATE_ADVI_OPTION(type, name, default_value, check) VARIATE_CHECKED_OPTION(AdviOptions, type, name, default_value, check)

  VARIATE_ADVI_OPTION(uint64_t, seed, 0, true)
  /// Maximum number of optimization iterations (CmdStan's iter).
  VARIATE_ADVI_OPTION(int, iter, 10000, value >= 1)
  /// Monte Carlo draws for each gradient step.
  VARIATE_ADVI_OPTION(int, grad_samples, 1, value >= 1)
  /// Monte Carlo draws for each ELBO evaluation (convergence checks, eta adaptation).
  VARIATE_ADVI_OPTION(int, elbo_samples, 100, value >= 1)
  /// The step size; used as given when adapt_engaged is false.
  VARIATE_ADVI_OPTION(double, eta, 1.0, value > 0 && value < 1e300)
  /// Pick eta from {100, 10, 1, 0.1, 0.01} by the ELBO after adapt_iter steps.
  VARIATE_ADVI_OPTION(bool, adapt_engaged, true, true)
  VARIATE_ADVI_OPTION(int, adapt_iter, 50, value >= 1)
  /// Stop when the mean or the median relative ELBO change over the window drops below.
  VARIATE_ADVI_OPTION(double, tol_rel_obj, 0.01, value > 0)
  /// Evaluate the ELBO (and check convergence) every eval_elbo iterations.
  VARIATE_ADVI_OPTION(int, eval_elbo, 100, value >= 1)
  /// advi() starts mu uniform on (-init_radius, init_radius), as Stan's random inits.
  VARIATE_ADVI_OPTION(double, init_radius, 2.0, value >= 0)
  /// The ELBO's value uses the closed-form Gaussian entropy instead of -log q (elbo.h).
  VARIATE_ADVI_OPTION(bool, analytic_entropy, true, true)
  /// Gradients by "sticking the landing" (Roeder, Wu & Duvenaud 2017; see elbo.h): their
  /// variance vanishes as q approaches a Gaussian posterior, which is what lets a run end
  /// at the optimum rather than hover around it. Off: Kucukelbir et al.'s estimator.
  VARIATE_ADVI_OPTION(bool, sticking_the_landing, true, true)
  /// Adam's moment decay rates. beta2 = 0.9 (Adam's default is 0.999) remembers squared
  /// gradients for about ten steps, as Stan's step-size sequence does (its alpha = 0.1):
  /// the gradients of a poor start are orders of magnitude larger than later ones, and a
  /// long memory of them stalls the optimization for thousands of iterations.
  VARIATE_ADVI_OPTION(double, adam_beta1, 0.9, value >= 0 && value < 1)
  VARIATE_ADVI_OPTION(double, adam_beta2, 0.9, value >= 0 && value < 1)
  /// At a plateau (the tol_rel_obj rule fires, or no evaluation improved on the best ELBO
  /// for a window of evaluations) eta is divided by 10 and the rule starts afresh, this
  /// many times; the run stops when the rule fires after the last reduction. With 0 it
  /// stops at the first firing, as Stan does. The adapted eta, chosen for speed over 50
  /// iterations, is too coarse for the optimum itself (Stan decays it as t^-1/2).
  VARIATE_ADVI_OPTION(int, step_reductions, 2, value >= 0)
  /// The fitted parameters are the average of the iterates since the last ELBO evaluation
  /// (the last eval_elbo iterations; Polyak & Juditsky 1992), and each evaluation judges
  /// that average: it removes the jitter of constant-step optimization.
  VARIATE_ADVI_OPTION(bool, average_iterates, true, true)
#undef VARIATE_ADVI_OPTION

 public:
  AdviOptions& method(AdviMethod value) {
    method_ = value;
    return *this;
  }
  AdviMethod method() const { return method_; }

 private:
  AdviMethod method_ = AdviMethod::meanfield;
};

}  // namespace variate
