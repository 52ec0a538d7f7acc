#pragma once
/// Flat(): the improper uniform density on the real line (Stan's default for a parameter
/// declared without a prior).

#include "engine/core/random_variable.h"
#include "engine/core/distribution.h"

namespace variate {
namespace distributions {

class Flat : public Distribution {
 public:
  Flat() = default;

  std::string name() const override { return "Flat"; }
  /// 0 at every finite value, -inf at infinities and NaN.
  at::Tensor log_prob(const at::Tensor& value) const override;
  /// @throws ArgumentError always: an improper distribution has no draws.
  at::Tensor sample(const Shape& sample_shape, at::Generator generator) const override;
  Support support() const override { return Support::real(); }
};

}  // namespace distributions

/// A Flat random variable named `name`; `sample_shape` copies. Its value must be given
/// (by conditioning or an inference algorithm), as it cannot be drawn.
RandomVariable Flat(std::string name, Shape sample_shape = {});

}  // namespace variate
