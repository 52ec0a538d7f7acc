#include "engine/mcmc/warmup.h"

#include "engine/mcmc/fisher_warmup.h"
#include "engine/mcmc/stan_warmup.h"

namespace variate {

Adaptation adaptation_used(const NutsOptions& options) {
  switch (options.metric()) {
    case MetricKind::diagonal:
      return options.adaptation();
    case MetricKind::low_rank:
      return Adaptation::fisher;
    case MetricKind::dense:
      break;
  }
  return Adaptation::stan;
}

std::unique_ptr<Warmup> make_warmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
                                    RandomStream& random, bool metric_given) {
  if (adaptation_used(options) == Adaptation::fisher) {
    return std::make_unique<FisherWarmup>(options, metric, hamiltonian, random, metric_given);
  }
  return std::make_unique<StanWarmup>(options, metric, hamiltonian, random);
}

}  // namespace variate
