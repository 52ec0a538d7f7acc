#pragma once
/// Running NUTS chains with Stan's warmup: initialization, step-size and metric adaptation,
/// sampling; chains on parallel threads with their own random streams, draws streamed to
/// an observer while they are made, and a stop flag that ends a run early keeping its draws.

#include <atomic>
#include <vector>

#include "engine/core/lockstep.h"
#include "engine/mcmc/nuts.h"
#include "engine/mcmc/nuts_options.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

struct ChainResult {
  int chain = 0;  // 0-based
  /// Unconstrained positions, one per iteration: warmup first, then sampling.
  std::vector<std::vector<double>> positions;
  std::vector<NutsResult> stats;
  int warmup_iterations = 0;  // how many of the rows are warmup
  double step_size = 0;
  MetricKind metric = MetricKind::diagonal;
  std::vector<double> inverse_metric;
  double seconds_warmup = 0;
  double seconds_sampling = 0;
  long gradient_evaluations = 0;
  bool stopped_early = false;
};

/// A batch of consecutive iterations of one chain.
struct DrawBatch {
  int chain = 0;
  int first_iteration = 0;  // 0-based, counting warmup
  int warmup_iterations = 0;  // of the chain (iterations below it are warmup)
  std::vector<std::vector<double>> positions;
  std::vector<NutsResult> stats;
};

/// Receives a run's progress. Called on the chains' threads, concurrently: implementations
/// must be thread-safe and quick (copy and hand over; never block for long).
class SampleObserver {
 public:
  virtual ~SampleObserver() = default;
  virtual void on_draws(const DrawBatch& batch) {}
  /// After warmup (after its last draws were handed over), or at the start when there is
  /// no warmup: the step size and inverse metric sampling uses.
  virtual void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) {}
  virtual void on_chain_finished(const ChainResult& result) {}
};

/// A chain found no initial point with a finite log density and gradient in 100 tries: the
/// model or its data leaves none. Callers that know the model say why
/// (model/invalid_argument.h).
class NoInitialPointError : public ArgumentError {
 public:
  using ArgumentError::ArgumentError;
};

/// Bytes sample_nuts keeps for its results: every iteration's position and statistics, of
/// every chain. A caller that keeps more per draw (a summary's columns, the studio's
/// copy) adds its own to check the whole before it starts (core/memory.h).
double retained_draw_bytes(const NutsOptions& options, int64_t dimension);

/// Runs options.chains() chains of NUTS on `target`. With a `lockstep` (a run that several
/// processes make together), chains run one after another on this thread, and every
/// iteration starts with lockstep->agree(position and step size, stop).
/// @throws NoInitialPointError if a chain finds no initial point with a finite log density
/// and gradient in 100 tries.
/// @throws ArgumentError before any work when retained_draw_bytes() exceeds the memory
/// available (a model of 10^6 parameters with 4 x 2000 iterations would keep 64 GB).
std::vector<ChainResult> sample_nuts(const UnconstrainedTarget& target, const NutsOptions& options,
                                     SampleObserver* observer = nullptr,
                                     const std::atomic<bool>* stop = nullptr,
                                     Lockstep* lockstep = nullptr);

}  // namespace variate
