#pragma once
/// Stan's warmup: dual averaging of the step size throughout, and the windowed metric
/// estimate (windowed_adaptation.h); after each new metric, a new step-size search and a
/// fresh dual averaging around it.

#include "engine/mcmc/step_size_adaptation.h"
#include "engine/mcmc/warmup.h"
#include "engine/mcmc/windowed_adaptation.h"

namespace variate {

class StanWarmup : public Warmup {
 public:
  StanWarmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian, RandomStream& random);
  double start(const PhasePoint& point, double step_size) override;
  WarmupStep learn(int iteration, const PhasePoint& point, const NutsResult& stats) override;

 private:
  EuclideanMetric& metric_;
  const Hamiltonian& hamiltonian_;
  RandomStream& random_;
  int warmup_;
  StepSizeAdaptation step_size_;
  WindowedAdaptation windows_;
  std::vector<double> inverse_metric_;  // the last estimate (scratch)
};

}  // namespace variate
