#include "engine/distributions/student_t.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"
#include "engine/distributions/standard_draws.h"

namespace variate {
namespace distributions {

StudentT::StudentT(at::Tensor nu, at::Tensor mu, at::Tensor sigma) {
  auto p = broadcast_parameters("StudentT", {std::move(nu), std::move(mu), std::move(sigma)});
  // Stan requires a finite nu too: the density below has no nu -> inf limit built in.
  check_positive("StudentT", "nu", p[0]);
  check_finite("StudentT", "nu", p[0]);
  check_finite("StudentT", "mu", p[1]);
  check_positive("StudentT", "sigma", p[2]);
  nu_ = p[0];
  mu_ = p[1];
  sigma_ = p[2];
  set_shapes(nu_.sizes().vec());
}

at::Tensor StudentT::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, mu_);
  const at::Tensor z = (x - mu_) / sigma_;
  const at::Tensor half_nu = 0.5 * nu_;
  return at::lgamma(half_nu + 0.5) - at::lgamma(half_nu) - 0.5 * at::log(nu_) -
         0.5 * kLogPi - at::log(sigma_) - (half_nu + 0.5) * at::log1p(z * z / nu_);
}

at::Tensor StudentT::sample(const Shape& sample_shape, at::Generator generator) const {
  const at::Tensor noise =
      standard_student_t(nu_.expand(extended_shape(sample_shape)), generator);
  return mu_ + sigma_ * noise;  // reparameterized in mu, sigma and (through Gamma) nu
}

}  // namespace distributions

RandomVariable StudentT(std::string name, const TensorArg& nu, const TensorArg& mu,
                        const TensorArg& sigma, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::StudentT>(nu, mu, sigma),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
