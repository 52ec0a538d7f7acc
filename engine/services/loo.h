#pragma once
/// PSIS-LOO of a stored NUTS run, the one driver every front end calls (`variate loo
/// --project`, `variate compare --project`, the studio's LOO panel): the pointwise log
/// likelihood of the run's post-warmup draws (its prediction, predict.h), every chain cut
/// to the shortest one's draws, scored by Pareto smoothed importance sampling (Vehtari,
/// Gelman & Gabry 2017) and stored with the run as the document `variate loo` writes
/// (workflow/loo_document.h), so that every front end reads one computation.

#include <cstddef>
#include <optional>
#include <string>

#include "engine/diagnostics/loo.h"
#include "engine/services/predict.h"
#include "engine/store/project.h"

namespace variate::services {

struct LooOutcome {
  diagnostics::LooResult loo;
  size_t draws = 0;  ///< chains x draws per chain it was computed from
  int draws_per_chain = 0;
};

/// The LOO of `prediction` (of a stored run), stored with that run; a project that cannot
/// be written now (read-only) only costs computing it again later.
/// @throws ArgumentError when LOO cannot be computed (a non-finite log likelihood).
LooOutcome loo_of(store::Project& project, const Prediction& prediction);

/// The LOO stored with run `run`, as long as it covers the run's draws (as many per chain
/// as its shortest chain has after warmup); nothing otherwise.
std::optional<LooOutcome> stored_loo(const store::Project& project, store::Id run);

/// The stored LOO of run `run` (its name or id), or else computed now and stored.
/// @throws as predict_stored_run and loo_of.
LooOutcome run_loo(store::Project& project, const std::string& run);

}  // namespace variate::services
