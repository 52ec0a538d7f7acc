#pragma once
/// Mixture(weights, component): a finite mixture of one family, whose C components are
/// the last batch dimension of `component` (TFP's MixtureSameFamily).

#include "engine/core/random_variable.h"
#include "engine/core/tensor_arg.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

/// weights [w_batch..., C] is a simplex over the last dimension; component has batch_shape
/// [c_batch..., C]. The mixture has batch_shape broadcast(w_batch, c_batch) and the
/// component's event_shape and support.
///
///   Mixture(w, std::make_shared<Normal>(mu, sigma))   // mu, sigma of shape [C]
class Mixture : public Distribution {
 public:
  /// @throws ArgumentError if weights are not a simplex, component is null, or the
  /// component's batch shape does not end in C.
  Mixture(at::Tensor weights, DistributionPtr component);

  std::string name() const override { return "Mixture"; }
  /// log sum_c w_c p_c(value), computed with logsumexp.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// Picks a component per draw (at::multinomial) and takes that component's draw.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override;

  const at::Tensor& weights() const { return weights_; }
  const DistributionPtr& component() const { return component_; }

 private:
  /// One component draw per (sample, mixture batch, component) index: shape
  /// sample_shape + batch_shape + [C] + event_shape.
  at::Tensor sample_components(const Shape& sample_shape, at::Generator generator) const;

  at::Tensor weights_;
  at::Tensor log_weights_;
  DistributionPtr component_;
};

}  // namespace distributions

/// A Mixture random variable named `name`; `sample_shape` iid copies.
///
///   auto y = Mixture("y", w, std::make_shared<distributions::Normal>(mu, sigma), {N});
RandomVariable Mixture(std::string name, const TensorArg& weights, DistributionPtr component,
                       Shape sample_shape = {});

}  // namespace variate
