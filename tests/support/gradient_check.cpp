#include "tests/support/gradient_check.h"

#include <cmath>
#include <sstream>

namespace variate::testing {

at::Tensor finite_difference_gradient(const std::function<at::Tensor(const at::Tensor&)>& f,
                                      const at::Tensor& x, double relative_step) {
  at::NoGradGuard no_grad;
  const at::Tensor point = x.detach().to(at::kDouble).contiguous();
  at::Tensor gradient = at::zeros_like(point);
  auto flat = point.view(-1);
  auto flat_gradient = gradient.view(-1);
  for (int64_t i = 0; i < flat.numel(); ++i) {
    const double xi = flat[i].item<double>();
    const double h = relative_step * std::max(1.0, std::abs(xi));
    at::Tensor up = point.clone();
    at::Tensor down = point.clone();
    up.view(-1)[i] = xi + h;
    down.view(-1)[i] = xi - h;
    const double fu = f(up).sum().item<double>();
    const double fd = f(down).sum().item<double>();
    flat_gradient[i] = (fu - fd) / (2 * h);
  }
  return gradient;
}

at::Tensor autograd_gradient(const std::function<at::Tensor(const at::Tensor&)>& f,
                             const at::Tensor& x) {
  at::Tensor point = x.detach().to(at::kDouble).clone().requires_grad_(true);
  at::Tensor value = f(point).sum();
  value.backward();
  return point.grad().detach();
}

std::string compare_gradients(const std::function<at::Tensor(const at::Tensor&)>& f,
                              const at::Tensor& x, double tolerance) {
  const at::Tensor analytic = autograd_gradient(f, x);
  const at::Tensor numeric = finite_difference_gradient(f, x);
  const at::Tensor error = (analytic - numeric).abs();
  const at::Tensor allowed = tolerance * (1 + numeric.abs());
  if ((error <= allowed).all().item<bool>()) return {};
  std::ostringstream message;
  message << "autograd gradient " << analytic << " differs from finite differences " << numeric
          << " at " << x;
  return message.str();
}

}  // namespace variate::testing
