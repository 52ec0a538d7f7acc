#include "engine/target/parameter_layout.h"

#include <set>

#include <ATen/ATen.h>

#include "engine/bijectors/make_bijector.h"
#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/trace.h"
#include "engine/core/distribution.h"
#include "engine/core/memory.h"

namespace variate {
namespace {

[[noreturn]] void throw_discrete(const std::string& name, const Support& support) {
  throw ArgumentError("parameter '" + name + "' is discrete (" + support.to_string() +
                      "); only continuous parameters can be inferred");
}

// Gives every variable without a value the image of the unconstrained zero vector; those
// are the model's latent variables (the others are observed).
class CentralValues : public Tracer {
 public:
  std::set<std::string> latent;

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    if (!spec.value) {
      latent.insert(spec.name);
      const auto& d = *spec.distribution;
      const Support support = spec.support ? *spec.support : d.support();
      const Shape shape = concat(concat(spec.sample_shape, d.batch_shape()), d.event_shape());
      if (support.is_discrete()) throw_discrete(spec.name, support);
      // Sizes come from the model text or its data (N = 10^12): refused with the sizes
      // named before the allocation, which could otherwise succeed and be killed later.
      double values = 1;
      for (const int64_t size : shape) values *= static_cast<double>(size);
      check_memory(4 * 8 * values, "the latent variable '" + spec.name + "' of shape " + to_string(shape),
                   "check its sizes and the data that gives them");
      const auto bijector = bijectors::make_bijector(support);
      spec.value = bijector->forward(at::zeros(bijector->unconstrained_shape(shape), at::kDouble));
    }
    return next(std::move(spec));
  }
};

}  // namespace

void ParameterLayout::add(const std::string& name, const Shape& shape, const Support& support) {
  if (positions_.count(name)) throw ArgumentError("parameter '" + name + "' is declared twice");
  if (support.is_discrete()) throw_discrete(name, support);
  ParameterInfo info{name, shape, support, bijectors::make_bijector(support), {}, dimension_, 0};
  info.unconstrained_shape = info.bijector->unconstrained_shape(shape);
  info.size = numel(info.unconstrained_shape);
  dimension_ += info.size;
  positions_.emplace(name, parameters_.size());
  parameters_.push_back(std::move(info));
}

ParameterLayout ParameterLayout::from_model(const LogJoint& log_joint) {
  Trace trace;
  CentralValues central;
  {
    // Central values are only reference points: arguments computed from them are not
    // validated (a scale of exp(0) - 1 = 0 there says nothing about the model).
    ValidationGuard no_validation(false);
    Condition observed(log_joint.observed().values());
    // Tracers run top first: observed values are set before the rest are filled in.
    TracerScope draw(central);
    TracerScope observe(observed);
    TracerScope record(trace);
    log_joint.model()();
  }
  ParameterLayout layout;
  for (const auto& rv : trace.variables()) {
    if (!central.latent.count(rv.name())) continue;
    layout.add(rv.name(), rv.shape(), rv.support());
  }
  return layout;
}

const ParameterInfo& ParameterLayout::operator[](const std::string& name) const {
  if (const auto found = positions_.find(name); found != positions_.end()) return parameters_[found->second];
  throw ArgumentError("the model has no parameter named '" + name + "'");
}

ConstrainedPoint ParameterLayout::constrain(const at::Tensor& unconstrained) const {
  const bool batched = unconstrained.dim() == 2;
  if (unconstrained.dim() < 1 || unconstrained.dim() > 2 ||
      unconstrained.size(-1) != dimension_) {
    throw ArgumentError("unconstrained parameters must have shape [" +
                        std::to_string(dimension_) + "] or [B, " + std::to_string(dimension_) +
                        "], got " + to_string(unconstrained.sizes()));
  }
  const int64_t batch = batched ? unconstrained.size(0) : 0;
  ConstrainedPoint point;
  // One split (a single backward node) rather than a slice per parameter; unconstrained
  // parameters add nothing to the log-Jacobian. Small models pay per tensor operation.
  std::vector<int64_t> sizes;
  for (const auto& p : parameters_) sizes.push_back(p.size);
  const std::vector<at::Tensor> slices = at::split_with_sizes(unconstrained, sizes, -1);
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const ParameterInfo& p = parameters_[i];
    const Shape shape = batched ? concat({batch}, p.unconstrained_shape) : p.unconstrained_shape;
    const at::Tensor y = slices[i].reshape(shape);
    point.values[p.name] = p.bijector->forward(y);
    if (p.support.kind() == Support::Kind::Real) continue;  // the identity bijector
    const at::Tensor log_det = p.bijector->forward_log_det_jacobian(y);
    const at::Tensor term = batched ? log_det.reshape({batch, -1}).sum(1) : log_det.sum();
    point.log_det_jacobian = point.log_det_jacobian.defined() ? point.log_det_jacobian + term : term;
  }
  if (!point.log_det_jacobian.defined()) {
    point.log_det_jacobian = batched ? at::zeros({batch}, unconstrained.options())
                                     : at::zeros({}, unconstrained.options());
  }
  return point;
}

at::Tensor ParameterLayout::unconstrain(const ValueMap& values) const {
  std::vector<at::Tensor> pieces;
  for (const auto& p : parameters_) {
    const auto it = values.find(p.name);
    if (it == values.end()) throw ArgumentError("no value for parameter '" + p.name + "'");
    if (it->second.sizes() != c10::IntArrayRef(p.shape)) {
      throw ArgumentError("value of parameter '" + p.name + "' has shape " +
                          to_string(it->second.sizes()) + ", expected " + to_string(p.shape));
    }
    pieces.push_back(p.bijector->inverse(it->second.to(at::kDouble)).reshape(-1));
  }
  if (pieces.empty()) return at::zeros({0}, at::kDouble);
  return at::cat(pieces);
}

}  // namespace variate
