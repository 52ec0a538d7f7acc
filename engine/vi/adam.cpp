#include "engine/vi/adam.h"

#include <cmath>
#include <string>

#include <ATen/ATen.h>

#include "engine/core/shape.h"

namespace variate {
namespace {

[[noreturn]] void throw_option(const char* name, const char* requirement, double value) {
  throw ArgumentError(std::string("AdamOptions: argument '") + name + "' must be " +
                      requirement + ", got " + std::to_string(value));
}

}  // namespace

AdamOptions& AdamOptions::learning_rate(double value) {
  if (!(value > 0) || !std::isfinite(value)) throw_option("learning_rate", "positive and finite", value);
  learning_rate_ = value;
  return *this;
}

AdamOptions& AdamOptions::beta1(double value) {
  if (!(value >= 0 && value < 1)) throw_option("beta1", "in [0, 1)", value);
  beta1_ = value;
  return *this;
}

AdamOptions& AdamOptions::beta2(double value) {
  if (!(value >= 0 && value < 1)) throw_option("beta2", "in [0, 1)", value);
  beta2_ = value;
  return *this;
}

AdamOptions& AdamOptions::epsilon(double value) {
  if (!(value > 0)) throw_option("epsilon", "positive", value);
  epsilon_ = value;
  return *this;
}

Adam::Adam(AdamOptions options) : options_(options) {}

void Adam::reset() {
  steps_ = 0;
  first_moment_.clear();
  second_moment_.clear();
}

void Adam::step(const std::vector<at::Tensor>& parameters,
                const std::vector<at::Tensor>& gradients, const std::vector<at::Tensor>& scales) {
  if (parameters.size() != gradients.size() ||
      (!scales.empty() && scales.size() != parameters.size())) {
    throw ArgumentError("Adam::step: " + std::to_string(parameters.size()) + " parameters, " +
                        std::to_string(gradients.size()) + " gradients and " +
                        std::to_string(scales.size()) + " scales");
  }
  if (first_moment_.empty()) {
    for (const auto& p : parameters) {
      first_moment_.push_back(at::zeros_like(p, at::MemoryFormat::Contiguous));
      second_moment_.push_back(at::zeros_like(p, at::MemoryFormat::Contiguous));
    }
  }
  if (first_moment_.size() != parameters.size()) {
    throw ArgumentError("Adam::step: the number of parameters changed from " +
                        std::to_string(first_moment_.size()) + " to " +
                        std::to_string(parameters.size()));
  }
  ++steps_;
  const double t = static_cast<double>(steps_);
  const double b1 = options_.beta1(), b2 = options_.beta2();
  const double correction1 = 1 - std::pow(b1, t);
  const double correction2 = 1 - std::pow(b2, t);
  const double rate = options_.learning_rate();
  at::NoGradGuard no_grad;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const at::Tensor& g = gradients[i];
    if (g.sizes() != parameters[i].sizes()) {
      throw ArgumentError("Adam::step: gradient " + std::to_string(i) + " has shape " +
                          to_string(g.sizes()) + ", its parameter " +
                          to_string(parameters[i].sizes()));
    }
    first_moment_[i].mul_(b1).add_(g, 1 - b1);
    second_moment_[i].mul_(b2).addcmul_(g, g, 1 - b2);
    // Kingma & Ba's form, m_hat / (sqrt(v_hat) + epsilon), as torch::optim::Adam has it.
    const at::Tensor denominator = (second_moment_[i] / correction2).sqrt_().add_(options_.epsilon());
    if (scales.empty()) {
      parameters[i].addcdiv_(first_moment_[i], denominator, -rate / correction1);
      continue;
    }
    const at::Tensor& s = scales[i];
    const at::Tensor newton = s * s * first_moment_[i].abs() / correction1;
    const at::Tensor factor = at::maximum(s, at::clamp_max(newton, 1.0));
    parameters[i].add_(first_moment_[i] / denominator * factor, -rate / correction1);
  }
}

}  // namespace variate
