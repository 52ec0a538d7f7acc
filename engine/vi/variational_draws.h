#pragma once
/// Drawing from a variational program and lining its draws up with a model: each random
/// variable the program creates is matched by name with a latent variable of the model
/// and brought to the unconstrained scale (through the model's bijector when the program
/// draws it on the model's own scale; see variational_program.h).

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/vi/variational_columns.h"
#include "engine/target/parameter_layout.h"
#include "engine/target/unconstrained_target.h"
#include "engine/vi/variational_program.h"

namespace variate {

/// `draws` independent draws (M) from a variational family, on the model's unconstrained
/// scale. Differentiable in the family's parameters when autograd is on.
struct VariationalDraws {
  /// [M, d], in the layout's order.
  at::Tensor unconstrained;
  /// [M]: log q of each draw as a density on the unconstrained scale.
  at::Tensor log_q;
  /// [M]: each draw's entropy term, whose mean estimates the entropy H[q]: per variable,
  /// its closed-form entropy (analytic_entropy(), when `analytic_entropy` is set, the
  /// family has one and the variable is on the unconstrained scale), else -log q of the
  /// draw.
  at::Tensor entropy;
  /// [M], only with `score`: log q of each draw with the draw held fixed (detached) and the
  /// parameters live, the score-function part of log q that the "sticking the landing"
  /// gradient leaves out (see elbo.h). Undefined otherwise.
  at::Tensor score_log_q;
};

/// Runs `family`'s program `draws` times, each time drawing every random variable from
/// `generator` (reproducible for a given generator state).
/// @throws ArgumentError if the program misses a latent variable of the layout, creates
/// one twice or one the model does not have, or gives one a support or shape that fits
/// neither scale (naming the variable, the expected and the actual support or shape), or,
/// with autograd on, draws one by a sampler that is not reparameterized.
VariationalDraws draw_variational(const VariationalFamily& family, const ParameterLayout& layout,
                                  int64_t draws, at::Generator generator,
                                  bool analytic_entropy = true, bool score = false);

/// The model's log density with the Jacobian at M unconstrained points [M, d] -> [M],
/// differentiable when autograd is on: one batched evaluation per 32 points (so a large
/// data set does not need M copies of its intermediate values at once), and an unbatched
/// one for a single point.
at::Tensor log_density_at(const UnconstrainedTarget& target, const at::Tensor& unconstrained);


/// What a fitted approximation gives a run's output: CmdStan's variational columns.
struct ApproximationDraws {
  at::Tensor unconstrained;  ///< [S, d]
  at::Tensor log_p;          ///< [S]: the model's log density with the Jacobian (log_p__)
  /// [S]: log q on the unconstrained scale (log_g__). CmdStan writes -|eta|^2 / 2 of the
  /// standardized draw instead, which differs from this by a constant per fit; both give
  /// the same importance ratios log_p__ - log_g__ up to that constant (PSIS, loo).
  at::Tensor log_g;
  at::Tensor mean;           ///< [d]: the approximation's unconstrained mean
};

/// `draws` draws from `family` with the model's log density at each, outside autograd.
/// The mean is the family's closed-form one, or else the mean of the draws.
/// @throws ArgumentError as draw_variational(), or if `draws` < 1.
ApproximationDraws sample_approximation(const UnconstrainedTarget& target,
                                        const VariationalFamily& family, int64_t draws,
                                        at::Generator generator);

}  // namespace variate
