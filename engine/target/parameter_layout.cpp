#include "engine/target/parameter_layout.h"

#include <algorithm>
#include <set>

#include <ATen/ATen.h>

#include "engine/bijectors/make_bijector.h"
#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/trace.h"
#include "engine/core/distribution.h"
#include "engine/core/memory.h"
#include "engine/target/point_supports.h"

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
  std::set<std::string> varying;  // latent variables whose support depends on others

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
      if (depends_on_parameters(support)) varying.insert(spec.name);
      const auto bijector = bijectors::make_bijector(support);
      // Central values require a gradient, so that a bound computed from them does too.
      const at::Tensor zero = at::zeros(bijector->unconstrained_shape(shape), at::kDouble).requires_grad_();
      spec.value = bijector->forward(zero.clone());
    }
    return next(std::move(spec));
  }
};

// The support without the autograd graph of the run that found it.
Support detached(const Support& support) {
  switch (support.kind()) {
    case Support::Kind::LowerBounded: return Support::lower_bounded(support.lower().detach());
    case Support::Kind::UpperBounded: return Support::upper_bounded(support.upper().detach());
    case Support::Kind::Interval: return Support::interval(support.lower().detach(), support.upper().detach());
    default: return support;
  }
}

}  // namespace

void ParameterLayout::add(const std::string& name, const Shape& shape, const Support& support, bool support_varies) {
  if (positions_.count(name)) throw ArgumentError("parameter '" + name + "' is declared twice");
  if (support.is_discrete()) throw_discrete(name, support);
  const auto kind = support.kind();
  if (support_varies && kind != Support::Kind::LowerBounded && kind != Support::Kind::UpperBounded &&
      kind != Support::Kind::Interval) {
    throw ArgumentError("the support of parameter '" + name + "' (" + support.to_string() +
                        ") cannot vary with the other parameters; only bounds can");
  }
  // A support that varies is only at the central point here, where its bounds may cross.
  const ValidationGuard central(!support_varies && validation_enabled());
  ParameterInfo info{name, shape, support, bijectors::make_bijector(support), {}, dimension_, 0, support_varies};
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
    at::AutoGradMode gradients(true);
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
    layout.add(rv.name(), rv.shape(), detached(rv.support()), central.varying.count(rv.name()) > 0);
  }
  if (!central.varying.empty()) layout.set_support_model(log_joint);
  return layout;
}

void ParameterLayout::set_support_model(LogJoint model, bool batches) {
  const bool varies = std::any_of(parameters_.begin(), parameters_.end(),
                                  [](const ParameterInfo& p) { return p.support_varies; });
  if (varies) support_model_ = std::make_shared<const LogJoint>(std::move(model));
  support_model_batches_ = batches;
}

const ParameterInfo& ParameterLayout::operator[](const std::string& name) const {
  if (const auto found = positions_.find(name); found != positions_.end()) return parameters_[found->second];
  throw ArgumentError("the model has no parameter named '" + name + "'");
}

void ParameterLayout::check_shape(const at::Tensor& unconstrained) const {
  if (unconstrained.dim() < 1 || unconstrained.dim() > 2 || unconstrained.size(-1) != dimension_) {
    throw ArgumentError("unconstrained parameters must have shape [" +
                        std::to_string(dimension_) + "] or [B, " + std::to_string(dimension_) +
                        "], got " + to_string(unconstrained.sizes()));
  }
}

ConstrainedPoint ParameterLayout::constrain(const at::Tensor& unconstrained) const {
  check_shape(unconstrained);
  const bool batched = unconstrained.dim() == 2;
  const int64_t batch = batched ? unconstrained.size(0) : 0;
  ConstrainedPoint point;
  // One split (a single backward node) rather than a slice per parameter; unconstrained
  // parameters add nothing to the log-Jacobian. Small models pay per tensor operation.
  std::vector<int64_t> sizes;
  for (const auto& p : parameters_) sizes.push_back(p.size);
  const std::vector<at::Tensor> slices = at::split_with_sizes(unconstrained, sizes, -1);
  std::map<std::string, at::Tensor> varying;  // unconstrained slices, constrained in the model's order
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const ParameterInfo& p = parameters_[i];
    const Shape shape = batched ? concat({batch}, p.unconstrained_shape) : p.unconstrained_shape;
    const at::Tensor y = slices[i].reshape(shape);
    if (p.support_varies) {
      varying.emplace(p.name, y);
      continue;
    }
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
  if (varying.empty()) return point;
  if (!batched || support_model_batches_) {
    constrain_at_point(*support_model_, varying, point, batched ? std::optional<int64_t>(batch) : std::nullopt);
    return point;
  }
  // Point by point: each row's values and log|det J|, stacked back into the batch.
  std::vector<std::map<std::string, at::Tensor>> rows(static_cast<size_t>(batch));
  std::vector<at::Tensor> log_dets;
  for (int64_t b = 0; b < batch; ++b) {
    ConstrainedPoint row;
    for (const auto& [name, value] : point.values) row.values[name] = value[b];
    row.log_det_jacobian = at::zeros({}, unconstrained.options());
    std::map<std::string, at::Tensor> slices;
    for (const auto& [name, y] : varying) slices[name] = y[b];
    constrain_at_point(*support_model_, slices, row, std::nullopt);
    rows[static_cast<size_t>(b)] = std::move(row.values);
    log_dets.push_back(row.log_det_jacobian);
  }
  for (const auto& [name, y] : varying) {
    std::vector<at::Tensor> values;
    for (const auto& row : rows) values.push_back(row.at(name));
    point.values[name] = at::stack(values);
  }
  point.log_det_jacobian = point.log_det_jacobian + at::stack(log_dets);
  return point;
}

std::vector<Support> ParameterLayout::supports_at(const ValueMap& values) const {
  std::set<std::string> varying;
  for (const auto& p : parameters_) {
    if (p.support_varies) varying.insert(p.name);
  }
  const std::map<std::string, Support> computed =
      varying.empty() ? std::map<std::string, Support>{} : model_supports_at(*support_model_, values, varying);
  std::vector<Support> supports;
  for (const auto& p : parameters_) supports.push_back(p.support_varies ? computed.at(p.name) : p.support);
  return supports;
}

at::Tensor ParameterLayout::unconstrain(const ValueMap& values) const {
  for (const auto& p : parameters_) {
    const auto it = values.find(p.name);
    if (it == values.end()) throw ArgumentError("no value for parameter '" + p.name + "'");
    if (it->second.sizes() != c10::IntArrayRef(p.shape)) {
      throw ArgumentError("value of parameter '" + p.name + "' has shape " +
                          to_string(it->second.sizes()) + ", expected " + to_string(p.shape));
    }
  }
  const std::vector<Support> supports = supports_at(values);
  std::vector<at::Tensor> pieces;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const ParameterInfo& p = parameters_[i];
    const auto bijector = p.support_varies ? bijectors::make_bijector(supports[i]) : p.bijector;
    pieces.push_back(bijector->inverse(values.at(p.name).to(at::kDouble)).reshape(-1));
  }
  if (pieces.empty()) return at::zeros({0}, at::kDouble);
  return at::cat(pieces);
}

}  // namespace variate
