#include "engine/distributions/binomial.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {
namespace {

void check_trials(const at::Tensor& N) {
  check_nonnegative_integer("Binomial", "N", N);
  check_finite("Binomial", "N", N);
}

// k log(theta), exactly 0 where k = 0 even at theta = 0, with a NaN-free gradient: the
// logarithm sees 1 where k = 0.
at::Tensor multiply_log(const at::Tensor& k, const at::Tensor& theta) {
  return k * at::log(at::where(k == 0, at::ones_like(theta), theta));
}

// k log(1 - theta), exactly 0 where k = 0 even at theta = 1.
at::Tensor multiply_log1m(const at::Tensor& k, const at::Tensor& theta) {
  return k * at::log1p(-at::where(k == 0, at::zeros_like(theta), theta));
}

}  // namespace

Binomial::Binomial(at::Tensor N, at::Tensor theta) {
  auto p = broadcast_parameters("Binomial", {std::move(N), std::move(theta)});
  check_trials(p[0]);
  check_probability("Binomial", "theta", p[1]);
  N_ = p[0];
  theta_ = p[1];
  set_shapes(N_.sizes().vec());
}

Binomial::Binomial(at::Tensor N, const Logits& logits) {
  auto p = broadcast_parameters("Binomial", {std::move(N), logits.value});
  check_trials(p[0]);
  check_finite("Binomial", "logits", p[1]);
  N_ = p[0];
  logits_ = p[1];
  set_shapes(N_.sizes().vec());
}

Support Binomial::support() const {
  return Support::integer_interval(at::zeros({}, N_.options()), N_);
}

at::Tensor Binomial::theta() const { return has_logits() ? at::sigmoid(logits_) : theta_; }

at::Tensor Binomial::logits() const { return has_logits() ? logits_ : at::logit(theta_); }

at::Tensor Binomial::log_prob(const at::Tensor& value) const {
  const at::Tensor x = as_floating(value, N_);
  const at::Tensor inside = (x >= 0) & (x <= N_) & (x == at::floor(x));
  // Outside the support the mass is evaluated at k = 0 and masked.
  const at::Tensor k = at::where(inside, x, at::zeros_like(x));
  const at::Tensor failures = N_ - k;
  const at::Tensor log_choose = at::lgamma(N_ + 1) - at::lgamma(k + 1) - at::lgamma(failures + 1);
  at::Tensor log_mass;
  if (has_logits()) {
    // log theta = log_sigmoid(eta) and log(1 - theta) = log_sigmoid(-eta), both stable.
    log_mass = log_choose + k * at::log_sigmoid(logits_) + failures * at::log_sigmoid(-logits_);
  } else {
    log_mass = log_choose + multiply_log(k, theta_) + multiply_log1m(failures, theta_);
  }
  return mask_outside_support(log_mass, inside);
}

at::Tensor Binomial::sample(const Shape& sample_shape, at::Generator generator) const {
  const Shape shape = extended_shape(sample_shape);
  const at::Tensor probability = theta().detach().expand(shape).contiguous();
  return at::binomial(N_.detach().expand(shape).contiguous(), probability, generator);
}

}  // namespace distributions

RandomVariable Binomial(std::string name, const TensorArg& N, const TensorArg& theta,
                        Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Binomial>(N.tensor(), theta.tensor()),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

RandomVariable Binomial(std::string name, const TensorArg& N, const Logits& logits,
                        Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Binomial>(N.tensor(), logits),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
