#include "engine/vi/elbo.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/checks.h"
#include "engine/vi/variational_draws.h"

namespace variate {

Elbo::Elbo(UnconstrainedTarget target, ElboOptions options)
    : target_(std::move(target)), options_(options) {}

ElboEstimate Elbo::estimate(const VariationalFamily& family, int64_t draws,
                            at::Generator generator) const {
  at::NoGradGuard no_grad;
  const VariationalDraws q = draw_variational(family, target_.layout(), draws,
                                              std::move(generator), options_.analytic_entropy);
  ElboEstimate out;
  out.unconstrained = q.unconstrained;
  out.log_p = log_density_at(target_, q.unconstrained);
  out.log_q = q.log_q;
  out.elbo = (out.log_p + q.entropy).mean().item<double>();
  return out;
}

ElboGradient Elbo::value_and_gradient(const VariationalFamily& family, int64_t draws,
                                      at::Generator generator) const {
  at::AutoGradMode enable(true);
  const auto parameters = family.parameters();
  const bool stl = options_.sticking_the_landing;
  const VariationalDraws q = draw_variational(family, target_.layout(), draws,
                                              std::move(generator), options_.analytic_entropy, stl);
  const at::Tensor log_p = log_density_at(target_, q.unconstrained);
  at::Tensor objective = (log_p + q.entropy).mean();
  ElboGradient out;
  out.elbo = objective.item<double>();
  // log q with the parameters held fixed is log q minus its score-function part.
  if (stl) objective = (log_p - q.log_q + q.score_log_q).mean();
  if (parameters.empty()) return out;
  if (!objective.requires_grad()) {
    for (const auto& p : parameters) out.gradient.push_back(at::zeros_like(p));
    return out;
  }
  std::vector<at::Tensor> inputs(parameters.begin(), parameters.end());
  const auto gradient = torch::autograd::grad({objective}, inputs, {}, false, false, true);
  for (size_t i = 0; i < parameters.size(); ++i) {
    out.gradient.push_back(gradient[i].defined() ? gradient[i] : at::zeros_like(parameters[i]));
  }
  return out;
}

}  // namespace variate
