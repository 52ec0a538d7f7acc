#pragma once
/// Step-size adaptation by dual averaging (Nesterov 2009; Hoffman & Gelman 2014, Sec. 3.2),
/// with Stan's defaults: target acceptance delta 0.8, gamma 0.05, kappa 0.75, t0 10.

namespace variate {

class StepSizeAdaptation {
 public:
  explicit StepSizeAdaptation(double target_accept = 0.8, double gamma = 0.05,
                              double kappa = 0.75, double t0 = 10);

  /// Starts a new adaptation around log(10 * step_size), as Stan does after each metric
  /// update.
  void restart(double step_size);
  /// Updates from one transition's acceptance statistic; returns the next step size.
  double learn(double accept_stat);
  /// The averaged step size to sample with once warmup ends.
  double final_step_size() const;

 private:
  double delta_, gamma_, kappa_, t0_;
  double mu_ = 0;
  double counter_ = 0;
  double s_bar_ = 0;
  double x_bar_ = 0;
};

}  // namespace variate
