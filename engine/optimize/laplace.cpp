#include "engine/optimize/laplace.h"

#include <cmath>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/argument_error.h"
#include "engine/core/random_stream.h"

namespace variate {

LaplaceApproximation::LaplaceApproximation(std::vector<double> mode, const at::Tensor& hessian)
    : mode_(std::move(mode)) {
  const auto [cholesky, info] = at::linalg_cholesky_ex(-hessian.to(at::kDouble));
  if (info.item<int64_t>() != 0) {
    throw ArgumentError(
        "the Hessian at the mode is not negative definite, so there is no Laplace approximation there: the mode "
        "may be a saddle or lie at a boundary of the support (a scale going to 0), or a direction may be flat "
        "(an unidentified parameter); try --jacobian, or sample with NUTS");
  }
  precision_cholesky_ = cholesky;
}

at::Tensor LaplaceApproximation::covariance() const { return at::cholesky_inverse(precision_cholesky_); }

LaplaceApproximation::Draws LaplaceApproximation::draw(const UnconstrainedTarget& target, int64_t n, bool jacobian,
                                                       uint64_t seed, uint64_t stream) const {
  const auto d = static_cast<int64_t>(mode_.size());
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(seed, stream).next());
  const at::Tensor z = at::randn({n, d}, generator, at::kDouble);
  // theta = mode + L^-T z has covariance (L L^T)^-1.
  const at::Tensor offsets =
      at::linalg_solve_triangular(precision_cholesky_.t(), z.t(), /*upper=*/true).t();
  Draws draws;
  draws.unconstrained = at::tensor(mode_, at::kDouble).unsqueeze(0) + offsets;
  const double log_det_precision = 2 * at::log(precision_cholesky_.diagonal()).sum().item<double>();
  draws.log_g = -0.5 * (z * z).sum(1) - 0.5 * d * std::log(2 * M_PI) + 0.5 * log_det_precision;
  draws.log_p = target.log_density(draws.unconstrained, jacobian).to(at::kDouble);
  return draws;
}

}  // namespace variate
