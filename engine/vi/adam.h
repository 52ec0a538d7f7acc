#pragma once
/// Adam (Kingma & Ba 2015, Algorithm 1) on plain tensors, with optional per-coordinate
/// scales: the optimizer ADVI uses.
///
///   Adam adam(AdamOptions().learning_rate(0.1));
///   adam.step(parameters, gradients);   // parameters -= step, in place
///
/// Variate does not use torch::optim::Adam: that needs LibTorch's C++ frontend headers
/// (nn::Module, serialization) in the engine and keys its state by tensor identity, and
/// ADVI needs the scaled steps below. Without scales the update is torch::optim::Adam's
/// (no weight decay, no AMSGrad), tested against the formula.

#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/checks.h"

namespace variate {

class AdamOptions {
 public:
  /// @throws ArgumentError unless positive and finite.
  AdamOptions& learning_rate(double value);
  /// @throws ArgumentError unless in [0, 1).
  AdamOptions& beta1(double value);
  /// @throws ArgumentError unless in [0, 1).
  AdamOptions& beta2(double value);
  /// @throws ArgumentError unless positive.
  AdamOptions& epsilon(double value);

  double learning_rate() const { return learning_rate_; }
  double beta1() const { return beta1_; }
  double beta2() const { return beta2_; }
  double epsilon() const { return epsilon_; }

 private:
  double learning_rate_ = 1e-3;
  double beta1_ = 0.9;
  double beta2_ = 0.999;
  double epsilon_ = 1e-8;
};

class Adam {
 public:
  explicit Adam(AdamOptions options = AdamOptions());

  /// One descent step, in place and outside autograd:
  ///   parameters[i] -= learning_rate * m_hat / (sqrt(v_hat) + epsilon) * f
  /// with f = 1, or, given `scales` s (one tensor per parameter, broadcasting against it),
  /// f = max(s, min(s^2 |m_hat|, 1)). Adam alone moves every coordinate by about its
  /// learning rate whatever the coordinate's scale; with s the scale a location is known
  /// to (a posterior sd), its steps shrink to about s near the optimum, yet stay up to
  /// plain Adam's while s^2 |m_hat| (the distance a Newton step with curvature 1/s^2
  /// would go) is larger, so a location whose scale has shrunk early still travels.
  /// A coordinate with s = 1 gets plain Adam's step. To maximize, pass negated gradients.
  /// @throws ArgumentError if the lists differ in length or shapes, or change between
  /// steps.
  void step(const std::vector<at::Tensor>& parameters, const std::vector<at::Tensor>& gradients,
            const std::vector<at::Tensor>& scales = {});
  /// Changes the learning rate, keeping the moment estimates.
  void set_learning_rate(double rate) { options_.learning_rate(rate); }
  /// Forgets the moment estimates and the step count.
  void reset();

  /// Steps taken since construction or reset().
  long steps() const { return steps_; }
  const AdamOptions& options() const { return options_; }

 private:
  AdamOptions options_;
  long steps_ = 0;
  std::vector<at::Tensor> first_moment_;
  std::vector<at::Tensor> second_moment_;
};

}  // namespace variate
