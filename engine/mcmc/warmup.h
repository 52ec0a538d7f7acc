#pragma once
/// What adapts a chain's step size and metric during warmup, transition by transition:
/// Stan's windowed adaptation (stan_warmup.h) or the adaptation from draws and gradients
/// (fisher_warmup.h), as NutsOptions::adaptation() says.

#include <memory>

#include "engine/core/random_stream.h"
#include "engine/mcmc/euclidean_metric.h"
#include "engine/mcmc/hamiltonian.h"
#include "engine/mcmc/nuts.h"
#include "engine/mcmc/nuts_options.h"

namespace variate {

/// What warmup decided after a transition.
struct WarmupStep {
  double step_size;  ///< of the next transition
  bool last;         ///< warmup ends with this transition: sampling follows
};

class Warmup {
 public:
  virtual ~Warmup() = default;
  /// At the chain's initial point, before its first transition: may set the metric;
  /// returns the first step size, searched for from `step_size`.
  virtual double start(const PhasePoint& point, double step_size) = 0;
  /// After warmup transition `iteration` (0-based), which ended at `point` with `stats`:
  /// may change the metric; returns the step size of the next transition (after the last
  /// warmup transition, the one sampling uses) and whether warmup ends here: at
  /// options.warmup() transitions or, for an adaptation that decides its own length,
  /// before.
  virtual WarmupStep learn(int iteration, const PhasePoint& point, const NutsResult& stats) = 0;
};

/// The adaptation a run with `options` uses: for a diagonal metric options.adaptation();
/// a dense metric adapts as Stan's, a low-rank one from draws and gradients (fisher).
Adaptation adaptation_used(const NutsOptions& options);

/// The warmup `options` ask for, over options.warmup() transitions. It changes `metric`
/// (which `hamiltonian` integrates with) and draws from `random` when it searches for a
/// step size. `metric_given`: the metric holds an estimate to start from (Pathfinder's),
/// which the first estimate of warmup replaces.
std::unique_ptr<Warmup> make_warmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
                                    RandomStream& random, bool metric_given);

}  // namespace variate
