#include "engine/distributions/mixture.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/tracing.h"
#include "engine/distributions/parameters.h"

namespace variate {
namespace distributions {

Mixture::Mixture(at::Tensor weights, DistributionPtr component)
    : component_(std::move(component)) {
  if (!component_) throw ArgumentError("Mixture: argument 'component' is null");
  if (!at::isFloatingType(weights.scalar_type())) weights = weights.to(at::kDouble);
  check_simplex("Mixture", "weights", weights);
  const int64_t c = weights.size(-1);
  const Shape& component_batch = component_->batch_shape();
  if (component_batch.empty() || component_batch.back() != c) {
    throw ArgumentError("Mixture: argument 'component' must have a batch shape ending in " +
                        std::to_string(c) + " (the number of weights), got batch shape " +
                        to_string(component_batch));
  }
  Shape batch;
  try {
    batch = broadcast_shapes(weights.sizes().slice(0, weights.dim() - 1),
                             c10::IntArrayRef(component_batch).slice(0, component_batch.size() - 1));
  } catch (const ArgumentError&) {
    throw ArgumentError("Mixture: the batch shapes of 'weights' " + to_string(weights.sizes()) +
                        " and 'component' " + to_string(component_batch) +
                        " do not broadcast");
  }
  weights_ = std::move(weights);
  log_weights_ = at::log(weights_);
  set_shapes(std::move(batch), component_->event_shape());
}

Support Mixture::support() const { return component_->support(); }

at::Tensor Mixture::log_prob(const at::Tensor& value) const {
  const int64_t event_rank = static_cast<int64_t>(event_shape().size());
  if (value.dim() < event_rank) {
    throw ArgumentError("Mixture: value must have at least " + std::to_string(event_rank) +
                        " dimension(s), got shape " + to_string(value.sizes()));
  }
  // A component axis just before the event dimensions lets every component score the
  // value at once: shape [..., batch..., C].
  const at::Tensor per_component =
      component_->log_prob(value.unsqueeze(value.dim() - event_rank));
  return at::logsumexp(per_component + log_weights_, -1);
}

at::Tensor Mixture::sample_components(const Shape& sample_shape,
                                      at::Generator generator) const {
  // The component's batch (without C), left-padded with 1s to the mixture's batch rank.
  // Where it is 1 and the mixture's batch is not, each mixture element needs its own
  // component draw: those sizes are drawn as extra sample dimensions, then moved into
  // place.
  const Shape& batch = batch_shape();
  const int64_t rank = static_cast<int64_t>(batch.size());
  const Shape& component_batch = component_->batch_shape();
  Shape padded(rank - static_cast<int64_t>(component_batch.size() - 1), 1);
  padded.insert(padded.end(), component_batch.begin(), component_batch.end() - 1);
  Shape extra;
  std::vector<int64_t> extra_axis(rank, -1);
  for (int64_t d = 0; d < rank; ++d) {
    if (padded[d] == 1 && batch[d] != 1) {
      extra_axis[d] = static_cast<int64_t>(extra.size());
      extra.push_back(batch[d]);
    }
  }
  const int64_t s = static_cast<int64_t>(sample_shape.size());
  const int64_t e = static_cast<int64_t>(extra.size());
  const int64_t c = component_batch.back();
  const Shape& event = event_shape();
  at::Tensor draws = component_->sample(concat(sample_shape, extra), std::move(generator));
  draws = draws.reshape(concat(concat(concat(sample_shape, extra), padded),
                               concat({c}, event)));
  if (e == 0) return draws;
  // Order: sample dims, then per batch dim either its extra dim or the component's own,
  // then the size-1 component dims the extras replace, then C and the event.
  std::vector<int64_t> order;
  for (int64_t i = 0; i < s; ++i) order.push_back(i);
  for (int64_t d = 0; d < rank; ++d) {
    order.push_back(extra_axis[d] >= 0 ? s + extra_axis[d] : s + e + d);
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (extra_axis[d] >= 0) order.push_back(s + e + d);
  }
  for (int64_t i = s + e + rank; i < draws.dim(); ++i) order.push_back(i);
  return draws.permute(order).reshape(concat(concat(sample_shape, batch), concat({c}, event)));
}

at::Tensor Mixture::sample(const Shape& sample_shape, at::Generator generator) const {
  const Shape& batch = batch_shape();
  const int64_t c = weights_.size(-1);
  const at::Tensor draws = sample_components(sample_shape, generator);
  const int64_t component_axis = static_cast<int64_t>(sample_shape.size() + batch.size());
  if (draws.numel() == 0) return draws.select(component_axis, 0);  // multinomial needs n > 0
  // One categorical index per (sample, batch) element: multinomial takes 2-D weights, one
  // row per batch element, and draws the sample dimension as columns.
  const at::Tensor rows = weights_.detach().expand(concat(batch, {c})).reshape({-1, c});
  const int64_t n = numel(sample_shape);
  at::Tensor index =
      at::multinomial(rows, n, /*replacement=*/true, generator).transpose(0, 1);
  Shape index_shape = concat(concat(sample_shape, batch), {1});
  index_shape.resize(index_shape.size() + event_shape().size(), 1);
  index = index.reshape(index_shape).expand(concat(concat(sample_shape, batch),
                                                   concat({1}, event_shape())));
  return draws.gather(component_axis, index).squeeze(component_axis);
}

}  // namespace distributions

RandomVariable Mixture(std::string name, const TensorArg& weights, DistributionPtr component,
                       Shape sample_shape) {
  return make_random_variable(
      {std::move(name), std::make_shared<distributions::Mixture>(weights, std::move(component)),
       std::move(sample_shape), std::nullopt, std::nullopt});
}

}  // namespace variate
