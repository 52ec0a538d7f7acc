#include "engine/mcmc/stan_warmup.h"

#include "engine/mcmc/initial_step_size.h"

namespace variate {

StanWarmup::StanWarmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
                       RandomStream& random)
    : metric_(metric),
      hamiltonian_(hamiltonian),
      random_(random),
      warmup_(options.warmup()),
      step_size_(options.target_accept()),
      windows_(options.metric(), metric.dimension(), options.warmup()) {}

double StanWarmup::start(const PhasePoint& point, double step_size) {
  step_size = initial_step_size(hamiltonian_, point, step_size, random_);
  step_size_.restart(step_size);
  return step_size;
}

WarmupStep StanWarmup::learn(int iteration, const PhasePoint& point, const NutsResult& stats) {
  double step_size = step_size_.learn(stats.accept_stat);
  if (windows_.learn(point.q, inverse_metric_)) {
    metric_.set_inverse_metric(inverse_metric_);
    step_size = initial_step_size(hamiltonian_, point, step_size, random_);
    step_size_.restart(step_size);
  }
  const bool last = iteration + 1 == warmup_;
  return {last ? step_size_.final_step_size() : step_size, last};
}

}  // namespace variate
