#pragma once
/// ADVI's Gaussian families fitted in coordinates whitened by a Gaussian estimate of the
/// posterior N(c, Sigma) with Sigma = W W' (W its Cholesky factor), such as Pathfinder's:
///
///   mean-field:  mu = c + W v,  sd = exp(omega)           (the same mean-field family)
///   full-rank:   mu = c + W v,  L = W tril(D), D = I + ... (the same full-rank family)
///
/// The family is unchanged; only the coordinates the optimizer moves in are. In them the
/// ELBO of a Gaussian posterior is isotropic in v (its curvature W' H W = I when Sigma is
/// the posterior's covariance), so stochastic gradient ascent converges at one rate in
/// every direction instead of crawling along a ridge of strongly correlated or badly
/// scaled parameters, which is where plain ADVI stops far from the optimum (Kucukelbir et
/// al. 2017, Sec. 3.3, name the optimizer's scaling as ADVI's weak point; preconditioning
/// by a curvature estimate is the standard remedy, Nocedal & Wright 2006, Ch. 5.1).
/// It starts at the estimate: v = 0, and for mean-field exp(omega_i)^2 = 1 / (Sigma^-1)_ii,
/// the mean-field optimum of a Gaussian posterior (Bishop 2006, Sec. 10.1.2); for
/// full-rank D = I, q = N(c, Sigma).
///
/// to_plain() gives the fitted approximation as a MeanFieldGaussian or FullRankGaussian.

#include <memory>

#include <ATen/core/Tensor.h>

#include "engine/target/parameter_layout.h"
#include "engine/vi/advi_options.h"
#include "engine/vi/variational_program.h"

namespace variate {

class WhitenedGaussian : public VariationalFamily {
 public:
  /// @throws ArgumentError if `center` is not [d], `covariance` not [d, d] or not
  /// positive definite.
  WhitenedGaussian(ParameterLayout layout, AdviMethod method, const at::Tensor& center, const at::Tensor& covariance);

  void program() const override;
  /// Mean-field {v, omega}; full-rank {v, lower, omega} with D = tril(lower, -1) +
  /// diag(exp(omega)).
  std::vector<at::Tensor> parameters() const override;
  std::optional<at::Tensor> unconstrained_mean() const override { return mean().detach(); }
  /// The built-in family's name: the family is the same, only its coordinates differ.
  std::string name() const override { return to_string(method_); }

  /// The fitted approximation as the built-in family of its method.
  std::shared_ptr<VariationalFamily> to_plain() const;

 private:
  at::Tensor mean() const;
  at::Tensor scale_tril() const;  ///< full-rank: W D

  ParameterLayout layout_;
  AdviMethod method_;
  at::Tensor center_, whitening_;  ///< c [d] and W [d, d]
  at::Tensor v_, lower_, omega_;
};

}  // namespace variate
