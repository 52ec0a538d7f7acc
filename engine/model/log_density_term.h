#pragma once
/// `target += expr` as a random variable the log-joint tracer scores: observed at 0, its
/// log density is the term (summed over a point's elements), whatever the value. The
/// tracers need no new case, and a term adds to the density as any likelihood does.

#include <string>

#include "engine/core/distribution.h"
#include "engine/core/random_variable.h"

namespace variate::model {

class LogDensityTerm : public distributions::Distribution {
 public:
  /// `term`: [] for one point or [B] for a batch of B points.
  explicit LogDensityTerm(at::Tensor term);

  std::string name() const override { return "target"; }
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// A term has no variable: its only value is the 0 it is observed at.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }

 private:
  at::Tensor term_;
};

/// `target += term` in a C++ model: the sum of `term`'s elements (as float64) added to the
/// log density, as the observed variable `name` ("target[1]", numbered as the model text's
/// terms are) that the log joint scores.
///   vt::model::add_to_target("target[1]", -0.5 * vt::sum(vt::square(x)));
RandomVariable add_to_target(const std::string& name, const at::Tensor& term);

}  // namespace variate::model
