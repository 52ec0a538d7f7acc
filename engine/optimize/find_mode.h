#pragma once
/// The mode of a model's density on the unconstrained scale by L-BFGS, as Stan's
/// `optimize`: without the Jacobian of the constraining transforms (the default) it is
/// the posterior mode of the constrained parameters (the maximum likelihood estimate when
/// the target scores the likelihood alone, maximum_likelihood.h); with it, the mode of
/// the unconstrained density, the centre of a Laplace approximation (laplace.h).
///
///   const ModeResult mode = find_mode(model.target(), ModeOptions{}.with_seed(1));

#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/optimize/lbfgs.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

struct ModeOptions {
  bool jacobian = false;
  LbfgsOptions lbfgs;
  uint64_t seed = 0;
  /// Random starts are uniform(-init_radius, init_radius) unconstrained, as Stan's.
  double init_radius = 2;
  /// An unconstrained start instead of a random one (d values).
  std::vector<double> init;
  /// After L-BFGS converges, Newton steps with the exact Hessian (hessian.h) until the
  /// Newton decrement g' (-H)^-1 g / 2, the log density still to gain, is below 1e-12:
  /// L-BFGS's tests judge the gradient by its own curvature estimate, which on a ridge
  /// (a regression on unstandardized predictors) misses the flat direction by orders of
  /// magnitude and declares convergence far from the mode. Models with more than
  /// max_newton_dimension parameters skip it (a dense Hessian costs d gradients).
  bool newton_polish = true;
  int64_t max_newton_dimension = 1000;
};

struct ModeResult {
  LbfgsResult lbfgs;         ///< x is the unconstrained mode
  double log_density = 0;    ///< at the mode, with the Jacobian when options.jacobian
  std::vector<double> start;  ///< where L-BFGS started
  int newton_steps = 0;       ///< taken after L-BFGS (see ModeOptions::newton_polish)
  /// The Newton decrement at the end (NaN when not computed): below 1e-12 at a mode.
  double newton_decrement = NAN;
  double seconds = 0;
};

/// @throws ArgumentError if no start with a finite density is found, or `init` has the
/// wrong length or a non-finite density.
ModeResult find_mode(const UnconstrainedTarget& target, const ModeOptions& options,
                     const std::atomic<bool>* stop = nullptr, const LbfgsObserver& observer = {});

}  // namespace variate
