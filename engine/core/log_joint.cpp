#include "engine/core/log_joint.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/distribution.h"

namespace variate {

LogJointTracer::LogJointTracer(const ValueMap& values, const Data& observed,
                               std::optional<int64_t> batch_size,
                               const std::set<std::string>* unscored)
    : values_(values), observed_(observed), batch_size_(batch_size), unscored_(unscored) {
  total_ = batch_size_ ? at::zeros({*batch_size_}, at::kDouble) : at::zeros({}, at::kDouble);
}

RandomVariable LogJointTracer::trace(RandomVariableSpec spec, const NextTracer& next) {
  const auto given = values_.find(spec.name);
  const bool batched = batch_size_ && given != values_.end();
  if (given != values_.end()) {
    spec.value = given->second;
  } else if (observed_.contains(spec.name)) {
    spec.value = observed_[spec.name];
  } else if (!spec.value) {
    throw ArgumentError("log_joint: no value for latent variable '" + spec.name + "'");
  }

  const auto& distribution = *spec.distribution;
  const Shape expected =
      concat(concat(spec.sample_shape, distribution.batch_shape()), distribution.event_shape());
  at::Tensor value = *spec.value;
  int64_t point_rank = value.dim();  // rank of one point's value
  if (batched) {
    if (value.dim() == 0 || value.size(0) != *batch_size_) {
      throw ArgumentError("log_joint: value of '" + spec.name + "' must have a leading batch of " +
                          std::to_string(*batch_size_) + ", got shape " +
                          to_string(value.sizes()));
    }
    point_rank = value.dim() - 1;
    if (point_rank == 0) value = value.unsqueeze(1);
    spec.value = value;
  } else if (!batch_size_ && value.sizes() != c10::IntArrayRef(expected)) {
    throw ArgumentError("log_joint: value of '" + spec.name + "' has shape " +
                        to_string(value.sizes()) + ", expected " + to_string(expected));
  }

  const int64_t event_rank = static_cast<int64_t>(distribution.event_shape().size());
  const bool scored = !unscored_ || !unscored_->count(spec.name);
  RandomVariable rv = next(std::move(spec));
  if (!scored) return rv;
  at::Tensor log_prob = rv.log_prob();
  if (total_.device() != log_prob.device()) total_ = total_.to(log_prob.device());  // a CUDA model
  if (!batch_size_) {
    total_ = total_ + log_prob.sum();
  } else if (log_prob.dim() > point_rank - event_rank) {
    // The leading dimension is the batch: this term depends on the points.
    total_ = total_ + log_prob.reshape({*batch_size_, -1}).sum(1);
  } else {
    total_ = total_ + log_prob.sum();  // the same for every point; broadcasts
  }
  return rv;
}

LogJoint::LogJoint(Model model, Data observed, std::set<std::string> unscored)
    : model_(std::move(model)), observed_(std::move(observed)), unscored_(std::move(unscored)) {
  if (!model_) throw ArgumentError("make_log_joint: argument 'model' is empty");
}

at::Tensor LogJoint::evaluate(const ValueMap& values, std::optional<int64_t> batch_size) const {
  LogJointTracer tracer(values, observed_, batch_size, unscored_.empty() ? nullptr : &unscored_);
  {
    std::optional<BatchedEvaluationScope> batched;
    if (batch_size) batched.emplace();
    TracerScope scope(tracer);
    model_();
  }
  return tracer.total();
}

at::Tensor LogJoint::operator()(const ValueMap& latent_values) const {
  return evaluate(latent_values, std::nullopt);
}

at::Tensor LogJoint::operator()(const ValueMap& latent_values, int64_t batch_size) const {
  if (batch_size < 1) {
    throw ArgumentError("log_joint: argument 'batch_size' must be positive, got " +
                        std::to_string(batch_size));
  }
  return evaluate(latent_values, batch_size);
}

LogJoint make_log_joint(Model model, Data observed) {
  return LogJoint(std::move(model), std::move(observed));
}

}  // namespace variate
