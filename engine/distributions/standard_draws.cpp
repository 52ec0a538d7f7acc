#include "engine/distributions/standard_draws.h"

#include <limits>

#include <ATen/ATen.h>

namespace variate::distributions {
namespace {

double smallest_normal(at::ScalarType dtype) {
  switch (dtype) {
    case at::kFloat: return std::numeric_limits<float>::min();
    case at::kHalf: return 6.103515625e-05;     // 2^-14
    case at::kBFloat16: return 1.17549435e-38;  // float's exponent range
    default: return std::numeric_limits<double>::min();
  }
}

}  // namespace

at::Tensor standard_uniform(const Shape& shape, at::Generator generator,
                            const at::TensorOptions& options) {
  // at::rand draws from [0, 1) on every backend; only 0 needs moving.
  const at::Tensor u = at::rand(shape, generator, options);
  return u.clamp_min(smallest_normal(u.scalar_type()));
}

at::Tensor standard_exponential(const Shape& shape, at::Generator generator,
                                const at::TensorOptions& options) {
  return -at::log(standard_uniform(shape, generator, options));
}

at::Tensor standard_gamma(const at::Tensor& alpha, at::Generator generator) {
  // Small shapes underflow to 0 (P(G < tiny) is large for alpha << 1).
  return clamp_positive(at::_standard_gamma(alpha, generator));
}

at::Tensor standard_student_t(const at::Tensor& nu, at::Generator generator) {
  const at::Tensor z = at::normal(0.0, 1.0, nu.sizes(), generator, nu.options());
  const at::Tensor chi_square = 2.0 * standard_gamma(0.5 * nu, generator);
  return z * at::rsqrt(chi_square / nu);
}

at::Tensor clamp_positive(const at::Tensor& draws) {
  return draws.clamp_min(smallest_normal(draws.scalar_type()));
}

}  // namespace variate::distributions
