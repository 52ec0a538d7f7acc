#pragma once
/// What the runs of independent draws from an approximation (ADVI, Laplace, Pathfinder)
/// share on the engine thread: their draws recorded as the run's one chain, with
/// CmdStan's variational columns (lp__ written as 0, log_p__, log_g__) before the
/// outputs, handed to the UI as one block; the PSIS k-hat of their importance ratios;
/// and the run's end, its summary stored with the method's own record beside it.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include <QJsonObject>

#include "engine/store/project.h"

#include "ui/engine/compiled_request.h"
#include "ui/engine/run_context.h"

namespace variate::ui {

/// The variational columns, then the outputs' Stan CSV names.
std::vector<std::string> approximationColumns(const CompiledRequest& compiled);

/// Rows of a [n, d] tensor.
std::vector<std::vector<double>> positionsOf(const at::Tensor& unconstrained);

/// PSIS k-hat of log_p - log_q (importanceKHat of their difference).
double importanceKHat(const at::Tensor& logP, const at::Tensor& logQ);

/// Records the draws `unconstrained` [n, d] with their log p and log q as the run's one
/// chain (ended; stopped early when `stoppedEarly`; `lastPosition` unconstrained) and
/// posts them to the UI.
/// @throws store::ProjectError if the write fails.
void recordApproximationDraws(store::Project& project, store::Id run, const CompiledRequest& compiled,
                              const at::Tensor& unconstrained, const at::Tensor& logP, const at::Tensor& logQ,
                              const std::vector<double>& lastPosition, bool stoppedEarly, LiveMailbox& mailbox);

/// Ends the run as `status` (with `message`), stores its summary with `record` under
/// `key` ("advi", "optimize", "pathfinder") as its diagnostics, and posts `check` to the
/// UI.
/// @throws store::ProjectError if a write fails.
void finishApproximationRun(store::Project& project, store::Id run, RunStatus status, const std::string& message,
                            const char* key, const QJsonObject& record, const ApproximationCheck& check,
                            LiveMailbox& mailbox);

/// A run that failed with `message`: marked failed in the project when it is there.
RunOutcome failedRun(store::Project* project, qint64 runId, const std::string& message);

}  // namespace variate::ui
