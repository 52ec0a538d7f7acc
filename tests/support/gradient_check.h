#pragma once
/// Gradients by central finite differences, to check autograd against.

#include <functional>
#include <string>

#include <ATen/ATen.h>

namespace variate::testing {

/// Gradient of a scalar function of `x` (float64) by central differences with a step
/// relative to each coordinate's magnitude.
at::Tensor finite_difference_gradient(const std::function<at::Tensor(const at::Tensor&)>& f,
                                      const at::Tensor& x, double relative_step = 1e-6);

/// Autograd gradient of sum(f(x)) at x.
at::Tensor autograd_gradient(const std::function<at::Tensor(const at::Tensor&)>& f,
                             const at::Tensor& x);

/// Empty when autograd and finite differences agree to `tolerance` (absolute + relative);
/// otherwise a message with both gradients.
std::string compare_gradients(const std::function<at::Tensor(const at::Tensor&)>& f,
                              const at::Tensor& x, double tolerance = 1e-5);

}  // namespace variate::testing
