#include "engine/target/point_supports.h"

#include <ATen/ATen.h>

#include "engine/bijectors/make_bijector.h"
#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/distribution.h"
#include "engine/target/parameter_layout.h"

namespace variate {
namespace {

Support support_of(const RandomVariableSpec& spec) {
  return spec.support ? *spec.support : spec.distribution->support();
}

// A batched value as a model sees it (LogJointTracer's convention): a scalar's [B]
// becomes [B, 1], so that it broadcasts against [B, K].
at::Tensor model_view(const at::Tensor& value, std::optional<int64_t> batch_size, int64_t point_rank) {
  return batch_size && point_rank == 0 ? value.unsqueeze(1) : value;
}

// Sets the parameters' values in program order: those already known, and those whose
// support depends on the point, through the transform of the support met here.
class ConstrainAtPoint : public Tracer {
 public:
  ConstrainAtPoint(const std::map<std::string, at::Tensor>& unconstrained, ConstrainedPoint& point,
                   std::optional<int64_t> batch_size)
      : unconstrained_(unconstrained), point_(point), batch_size_(batch_size) {}

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    const int64_t leading = batch_size_ ? 1 : 0;
    if (const auto known = point_.values.find(spec.name); known != point_.values.end()) {
      spec.value = model_view(known->second, batch_size_, known->second.dim() - leading);
    } else if (const auto y = unconstrained_.find(spec.name); y != unconstrained_.end()) {
      const int64_t point_rank = y->second.dim() - leading;
      // Bounds in the wrong order at this point reject it, as an argument outside its
      // domain does (UnconstrainedTarget).
      const ValidationGuard checked(validation_enabled() || argument_checks_enabled());
      const auto bijector = bijectors::make_bijector(support_of(spec));
      const at::Tensor in_model = model_view(y->second, batch_size_, point_rank);
      const at::Tensor x = bijector->forward(in_model);
      const at::Tensor log_det = bijector->forward_log_det_jacobian(in_model);
      if (x.numel() != y->second.numel()) {
        throw ArgumentError("the bounds of '" + spec.name + "' do not broadcast to its value of shape " +
                            to_string(y->second.sizes()));
      }
      point_.values[spec.name] = x.reshape(y->second.sizes());
      const at::Tensor term = batch_size_ ? log_det.reshape({*batch_size_, -1}).sum(1) : log_det.sum();
      point_.log_det_jacobian = point_.log_det_jacobian + term;
      spec.value = x;
    }
    return next(std::move(spec));
  }

 private:
  const std::map<std::string, at::Tensor>& unconstrained_;
  ConstrainedPoint& point_;
  std::optional<int64_t> batch_size_;
};

// Records the supports of the variables it is asked about.
class SupportRecorder : public Tracer {
 public:
  SupportRecorder(const std::set<std::string>& names, std::map<std::string, Support>& out)
      : names_(names), out_(out) {}

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    if (names_.count(spec.name)) out_.insert_or_assign(spec.name, support_of(spec));
    return next(std::move(spec));
  }

 private:
  const std::set<std::string>& names_;
  std::map<std::string, Support>& out_;
};

}  // namespace

void constrain_at_point(const LogJoint& model, const std::map<std::string, at::Tensor>& unconstrained,
                        ConstrainedPoint& point, std::optional<int64_t> batch_size) {
  ConstrainAtPoint constrain(unconstrained, point, batch_size);
  Condition observed(model.observed().values());
  std::optional<BatchedEvaluationScope> batched;
  if (batch_size) batched.emplace();
  TracerScope observe(observed);
  TracerScope scope(constrain);
  model.model()();
  for (const auto& entry : unconstrained) {
    const std::string& name = entry.first;
    if (!point.values.count(name)) {
      throw ArgumentError("the model made no variable '" + name + "' when its bounds were computed");
    }
  }
}

std::map<std::string, Support> model_supports_at(const LogJoint& model,
                                                 const std::map<std::string, at::Tensor>& values,
                                                 const std::set<std::string>& names) {
  std::map<std::string, Support> supports;
  SupportRecorder recorder(names, supports);
  Condition given(values);
  Condition observed(model.observed().values());
  TracerScope observe(observed);
  TracerScope give(given);
  TracerScope record(recorder);
  model.model()();
  for (const auto& name : names) {
    if (!supports.count(name)) {
      throw ArgumentError("the model made no variable '" + name + "' when its bounds were computed");
    }
  }
  return supports;
}

bool depends_on_parameters(const Support& support) {
  return (support.lower().defined() && support.lower().requires_grad()) ||
         (support.upper().defined() && support.upper().requires_grad());
}

}  // namespace variate
