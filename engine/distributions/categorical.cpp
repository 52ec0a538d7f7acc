#include "engine/distributions/categorical.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

Categorical::Categorical(at::Tensor theta) {
  theta_ = broadcast_parameters("Categorical", {std::move(theta)})[0];
  check_simplex("Categorical", "theta", theta_);
  set_shapes(theta_.sizes().slice(0, theta_.dim() - 1).vec());
}

Categorical::Categorical(const Logits& logits) {
  logits_ = broadcast_parameters("Categorical", {logits.value})[0];
  check_min_rank("Categorical", "logits", logits_, 1);
  check_finite("Categorical", "logits", logits_);
  set_shapes(logits_.sizes().slice(0, logits_.dim() - 1).vec());
}

int64_t Categorical::num_categories() const {
  return (has_logits() ? logits_ : theta_).size(-1);
}

Support Categorical::support() const {
  const auto options = (has_logits() ? logits_ : theta_).options();
  return Support::integer_interval(at::ones({}, options),
                                   at::full({}, static_cast<double>(num_categories()), options));
}

at::Tensor Categorical::theta() const {
  return has_logits() ? at::softmax(logits_, -1) : theta_;
}

at::Tensor Categorical::logits() const { return has_logits() ? logits_ : at::log(theta_); }

at::Tensor Categorical::log_prob(const at::Tensor& value) const {
  const at::Tensor& parameter = has_logits() ? logits_ : theta_;
  const int64_t categories = num_categories();
  const at::Tensor x = as_floating(value, parameter);
  const at::Tensor inside = (x >= 1) & (x <= categories) & (x == at::floor(x));
  const Shape shape = broadcast_shapes(x.sizes(), batch_shape());
  // Outside the support the index is that of category 1 and the result is masked.
  const at::Tensor index =
      (at::where(inside, x, at::ones_like(x)) - 1).to(at::kLong).expand(shape).unsqueeze(-1);
  // Gather first, then take the log, so a zero probability that is not picked cannot put
  // 0/0 into the gradient of theta.
  const at::Tensor table = has_logits() ? at::log_softmax(logits_, -1) : theta_;
  const at::Tensor picked =
      table.expand(concat(shape, {categories})).gather(-1, index).squeeze(-1);
  return mask_outside_support(has_logits() ? picked : at::log(picked), inside);
}

at::Tensor Categorical::sample(const Shape& sample_shape, at::Generator generator) const {
  const int64_t draws = numel(sample_shape);
  const at::Tensor probabilities = theta().detach();
  const at::Tensor rows = probabilities.reshape({-1, num_categories()});
  // multinomial gives [rows, draws] 0-based indices; draws lead in the result.
  const at::Tensor indices = at::multinomial(rows, draws, /*replacement=*/true, generator);
  return (indices.t() + 1).to(probabilities.scalar_type()).reshape(extended_shape(sample_shape));
}

}  // namespace distributions

RandomVariable Categorical(std::string name, const TensorArg& theta, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Categorical>(theta.tensor()),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

RandomVariable Categorical(std::string name, const Logits& logits, Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Categorical>(logits),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
