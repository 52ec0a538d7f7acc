#include "engine/mcmc/step_size_adaptation.h"

#include <cmath>
#include <string>

#include "engine/core/checks.h"

namespace variate {

StepSizeAdaptation::StepSizeAdaptation(double target_accept, double gamma, double kappa, double t0)
    : delta_(target_accept), gamma_(gamma), kappa_(kappa), t0_(t0) {
  if (!(target_accept > 0 && target_accept < 1)) {
    throw ArgumentError("StepSizeAdaptation: argument 'target_accept' must be in (0, 1), got " +
                        std::to_string(target_accept));
  }
}

void StepSizeAdaptation::restart(double step_size) {
  mu_ = std::log(10 * step_size);
  counter_ = 0;
  s_bar_ = 0;
  x_bar_ = 0;
}

double StepSizeAdaptation::learn(double accept_stat) {
  ++counter_;
  accept_stat = accept_stat > 1 ? 1 : accept_stat;
  const double eta = 1.0 / (counter_ + t0_);
  s_bar_ = (1.0 - eta) * s_bar_ + eta * (delta_ - accept_stat);
  const double x = mu_ - s_bar_ * std::sqrt(counter_) / gamma_;
  const double x_eta = std::pow(counter_, -kappa_);
  x_bar_ = (1.0 - x_eta) * x_bar_ + x_eta * x;
  return std::exp(x);
}

double StepSizeAdaptation::final_step_size() const { return std::exp(x_bar_); }

}  // namespace variate
