#pragma once
/// The evidence lower bound of a variational program for a model (Kucukelbir et al.
/// 2017, Sec. 2-3; Edward2's variational programs): with draws zeta_m from q on the
/// model's unconstrained scale,
///
///   ELBO = E_q[log p(x, T(zeta)) + log |det J_T(zeta)|] + H[q]
///        ~ 1/M sum_m (log p(x, T(zeta_m)) + log |det J_T(zeta_m)| + h_m),
///
/// where T is the model's bijector and h_m the draw's entropy term (the closed-form
/// entropy where the family has one, else -log q(zeta_m)). Draws are reparameterized, so
/// the gradient with respect to q's parameters flows through the draws, the bijectors and
/// the model (Kucukelbir et al. 2017, Eq. 7-9).
///
/// The gradient is, by default, the "sticking the landing" estimator (Roeder, Wu &
/// Duvenaud 2017): that of 1/M sum_m (log p(zeta_m) - log q(zeta_m)) with q's parameters
/// held fixed inside log q, which drops the score-function term (zero in expectation).
/// Unbiased like the closed-form-entropy gradient, it has zero variance when q equals the
/// posterior, so near a Gaussian posterior the optimizer settles.
///
///   Elbo elbo(target);
///   auto estimate = elbo.estimate(family, 100, generator);
///   auto [value, gradient] = elbo.value_and_gradient(family, 1, generator);

#include <cstdint>
#include <vector>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/target/unconstrained_target.h"
#include "engine/vi/variational_program.h"

namespace variate {

struct ElboOptions {
  /// Gaussian variables on the unconstrained scale contribute their closed-form entropy to
  /// the ELBO's value (and to the gradient without sticking_the_landing); otherwise every
  /// entropy term is -log q of the draw.
  bool analytic_entropy = true;
  /// The gradient estimator (see above); false: the gradient of the estimate itself.
  bool sticking_the_landing = true;
};

/// An ELBO estimate and what it was made of (all detached).
struct ElboEstimate {
  double elbo = 0;
  at::Tensor log_p;          ///< [M]: model log density with the Jacobian at the draws
  at::Tensor log_q;          ///< [M]: q's log density at the draws (unconstrained scale)
  at::Tensor unconstrained;  ///< [M, d]: the draws
};

/// An ELBO estimate with its gradient, one tensor per family parameter.
struct ElboGradient {
  double elbo = 0;
  std::vector<at::Tensor> gradient;
};

class Elbo {
 public:
  explicit Elbo(UnconstrainedTarget target, ElboOptions options = ElboOptions());

  /// An estimate from `draws` draws, outside autograd. Model arguments are not validated
  /// (a draw far in the tails may give -inf or NaN, which the estimate then is).
  /// @throws ArgumentError as draw_variational(), or if draws < 1.
  ElboEstimate estimate(const VariationalFamily& family, int64_t draws,
                        at::Generator generator) const;

  /// An estimate from `draws` draws and its gradient with respect to family.parameters()
  /// (a zero tensor for a parameter the ELBO does not depend on).
  /// @throws ArgumentError as estimate().
  ElboGradient value_and_gradient(const VariationalFamily& family, int64_t draws,
                                  at::Generator generator) const;

  const UnconstrainedTarget& target() const { return target_; }
  const ElboOptions& options() const { return options_; }

 private:
  UnconstrainedTarget target_;
  ElboOptions options_;
};

}  // namespace variate
