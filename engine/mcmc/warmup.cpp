#include "engine/mcmc/warmup.h"

#include "engine/mcmc/fisher_warmup.h"
#include "engine/mcmc/stan_warmup.h"

namespace variate {

std::unique_ptr<Warmup> make_warmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
                                    RandomStream& random, bool metric_given) {
  // A dense metric adapts as Stan's: the Fisher estimate here is diagonal.
  if (options.adaptation() == Adaptation::fisher && options.metric() == MetricKind::diagonal) {
    return std::make_unique<FisherWarmup>(options, metric, hamiltonian, random, metric_given);
  }
  return std::make_unique<StanWarmup>(options, metric, hamiltonian, random);
}

}  // namespace variate
