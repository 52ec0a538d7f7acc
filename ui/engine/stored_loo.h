#pragma once
/// A run's PSIS-LOO stored with it in the project: the document `variate loo --project`
/// writes and `variate compare --project` reads (workflow/loo_document.h), so the studio,
/// the CLI and a reopened project share one computation. Worker-thread code: it reads and
/// writes the file through the caller's own connection.

#include <optional>

#include "ui/engine/run_prediction.h"

namespace variate::store {
class Project;
}

namespace variate::ui {

/// The run's stored LOO as a prediction with nothing replicated (looOnly), or nothing
/// when none is stored, it is unreadable, or it is stale: computed from another number
/// of draws than the run's post-warmup ones (as many per chain as its shortest chain has).
std::optional<RunPrediction> storedLoo(const store::Project& project, qint64 runId);

/// Stores `prediction`'s LOO with its run (computed from `chains` chains of
/// drawsPerChain draws), replacing any earlier one.
/// @throws store::ProjectError when the file cannot be written.
void storeLoo(store::Project& project, const RunPrediction& prediction, int chains);

}  // namespace variate::ui
