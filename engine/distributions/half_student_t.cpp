#include "engine/distributions/half_student_t.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

HalfStudentT::HalfStudentT(at::Tensor nu, at::Tensor sigma) {
  auto p = broadcast_parameters("HalfStudentT", {std::move(nu), std::move(sigma)});
  // Stan requires a finite nu too: the density below has no nu -> inf limit built in.
  check_positive("HalfStudentT", "nu", p[0]);
  check_finite("HalfStudentT", "nu", p[0]);
  check_positive("HalfStudentT", "sigma", p[1]);
  nu_ = p[0];
  sigma_ = p[1];
  set_shapes(nu_.sizes().vec());
}

at::Tensor HalfStudentT::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, sigma_);
  const at::Tensor inside = (x >= 0) & at::isfinite(x);
  // The formula runs on 1 outside the support, so nothing infinite reaches the
  // gradient of the masked entries.
  const at::Tensor z = at::where(inside, x, 1.0) / sigma_;
  const at::Tensor half_nu = 0.5 * nu_;
  const at::Tensor log_density = kLog2 + at::lgamma(half_nu + 0.5) - at::lgamma(half_nu) -
                                 0.5 * at::log(nu_) - 0.5 * kLogPi - at::log(sigma_) -
                                 (half_nu + 0.5) * at::log1p(z * z / nu_);
  return mask_outside_support(log_density, inside);
}

at::Tensor HalfStudentT::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      standard_student_t(nu_.expand(extended_shape(sample_shape)), generator);
  return clamp_positive(sigma_ * at::abs(noise));  // reparameterized in sigma and nu
}

}  // namespace distributions

RandomVariable HalfStudentT(std::string name, const TensorArg& nu, const TensorArg& sigma,
                            Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::HalfStudentT>(nu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
