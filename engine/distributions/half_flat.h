#pragma once
/// HalfFlat(): the improper uniform density on the positive reals (Stan's default for a
/// parameter declared with <lower=0> and no prior).

#include "engine/core/random_variable.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class HalfFlat : public Distribution {
 public:
  HalfFlat() = default;

  std::string name() const override { return "HalfFlat"; }
  /// 0 at every finite positive value, -inf elsewhere.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// @throws ArgumentError always: an improper distribution has no draws.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::positive(); }
};

}  // namespace distributions

/// A HalfFlat random variable named `name`; `sample_shape` copies. Its value must be
/// given (by conditioning or an inference algorithm), as it cannot be drawn.
RandomVariable HalfFlat(std::string name, Shape sample_shape = {});

}  // namespace variate
