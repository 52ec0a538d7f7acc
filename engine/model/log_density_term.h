#pragma once
/// `target += expr` as a random variable the log-joint tracer scores: observed at 0, its
/// log density is the term (summed over a point's elements), whatever the value. The
/// tracers need no new case, and a term adds to the density as any likelihood does.

#include "engine/core/distribution.h"

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

}  // namespace variate::model
