#include "engine/distributions/multi_normal.h"

#include <limits>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

void MultiNormal::initialize(at::Tensor mu, at::Tensor matrix, const char* matrix_name) {
  check_min_rank("MultiNormal", matrix_name, matrix, 2);
  const int64_t k = matrix.size(-1);
  if (mu.dim() > 0 && mu.size(-1) != k && mu.size(-1) != 1) {
    throw ArgumentError(std::string("MultiNormal: argument 'mu' must end in ") +
                        std::to_string(k) + " entries to match '" + matrix_name +
                        "', got shape " + to_string(mu.sizes()));
  }
  // Broadcasting mu as a column against the matrix gives the batch dimensions and the
  // dtype in one step; column 0 is mu again. A 0-dim mu is a number: it broadcasts as it
  // is and does not decide the dtype.
  if (mu.dim() > 0) mu = mu.unsqueeze(-1);
  auto p = broadcast_parameters("MultiNormal", {std::move(mu), matrix});
  mu_ = p[0].select(-1, 0);
  // The matrix keeps its own batch dimensions: one factorization and one triangular solve
  // serve a whole batch of means (many chains, one covariance).
  scale_tril_ = matrix.to(p[1].scalar_type());
  check_finite("MultiNormal", "mu", mu_);
  const auto sizes = mu_.sizes();
  set_shapes(Shape(sizes.begin(), sizes.end() - 1), {k});
}

MultiNormal::MultiNormal(at::Tensor mu, at::Tensor covariance) {
  if (!at::isFloatingType(covariance.scalar_type())) covariance = covariance.to(at::kDouble);
  check_finite("MultiNormal", "Sigma", covariance);
  check_positive_definite("MultiNormal", "Sigma", covariance);
  initialize(std::move(mu), std::move(covariance), "Sigma");
  const auto [factor, info] = at::linalg_cholesky_ex(scale_tril_);
  // Without validation (a sampler's hot path) a covariance that is not numerically
  // positive definite gives NaN densities, which samplers treat as divergences.
  const at::Tensor failed = (info != 0).unsqueeze(-1).unsqueeze(-1);
  scale_tril_ = at::where(failed, at::full({}, std::numeric_limits<double>::quiet_NaN(),
                                           factor.options()),
                          factor);
}

MultiNormal::MultiNormal(at::Tensor mu, ScaleTril scale_tril) {
  if (!at::isFloatingType(scale_tril.value.scalar_type())) {
    scale_tril.value = scale_tril.value.to(at::kDouble);
  }
  check_cholesky_factor("MultiNormal", "scale_tril", scale_tril.value);
  check_finite("MultiNormal", "scale_tril", scale_tril.value);
  initialize(std::move(mu), std::move(scale_tril.value), "scale_tril");
  // The density reads only the lower triangle; the sampler must read the same matrix.
  scale_tril_ = scale_tril_.tril();
}

at::Tensor MultiNormal::covariance() const {
  return at::matmul(scale_tril_, scale_tril_.transpose(-2, -1));
}

at::Tensor MultiNormal::log_prob(const at::Tensor& value) const {
  const int64_t k = mu_.size(-1);
  if (value.dim() < 1 || value.size(-1) != k) {
    throw ArgumentError("MultiNormal: value must end in " + std::to_string(k) +
                        " entries, got shape " + to_string(value.sizes()));
  }
  const at::Tensor difference = as_floating(value, mu_) - mu_;
  at::Tensor z;
  if (scale_tril_.dim() == 2) {
    // One factor for every point: a single solve with the points as columns, rather than
    // a copy of L per point.
    const at::Tensor columns = difference.reshape({-1, k}).transpose(0, 1);
    z = at::linalg_solve_triangular(scale_tril_, columns, /*upper=*/false)
            .transpose(0, 1)
            .reshape(difference.sizes());
  } else {
    z = at::linalg_solve_triangular(scale_tril_, difference.unsqueeze(-1), /*upper=*/false)
            .squeeze(-1);
  }
  const at::Tensor half_log_det = at::log(scale_tril_.diagonal(0, -2, -1)).sum(-1);
  return -0.5 * z.square().sum(-1) - half_log_det - static_cast<double>(k) * kHalfLog2Pi;
}

at::Tensor MultiNormal::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      at::normal(0.0, 1.0, extended_shape(sample_shape), generator, mu_.options());
  return mu_ + at::matmul(scale_tril_, noise.unsqueeze(-1)).squeeze(-1);
}

}  // namespace distributions

RandomVariable MultiNormal(std::string name, const TensorArg& mu, const TensorArg& Sigma,
                           Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::MultiNormal>(mu, Sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

RandomVariable MultiNormal(std::string name, const TensorArg& mu, const ScaleTril& scale_tril,
                           Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::MultiNormal>(mu, scale_tril),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
