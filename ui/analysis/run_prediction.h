#pragma once
/// Posterior predictive draws and PSIS-LOO of a finished NUTS run, as the predictive
/// check and LOO panels show them: for every post-warmup draw, each observed variable's
/// replicated values y_rep and the pointwise log likelihood, by tracing the model at the
/// draw (workflow/posterior_predictive.h), seeded per chain as `variate sample --predict`
/// seeds them; then the test statistics with their posterior predictive p-values (Gelman
/// et al., BDA3 Sec. 6.3) and loo's elpd_loo, p_loo, looic and Pareto k.
/// (ATen-free: the UI includes it; the computation lives in the .cpp.)

#include <memory>
#include <optional>
#include <vector>

#include <QString>
#include <QStringList>

#include "engine/diagnostics/loo.h"

#include "ui/document/run_data.h"

namespace variate::ui {

/// A test statistic T of the data against its replicated values.
struct TestStatistic {
  QString name;  // "mean", "sd", "min", "max", "median"
  double observed = 0;                // T(y)
  std::vector<double> replicated;     // T(y_rep) per draw
  /// Pr(T(y_rep) >= T(y)): near 0 or 1, the model does not reproduce this feature.
  double pValue = 0;
};

/// One observed variable: its data and its replicated values.
struct ObservedPrediction {
  QString name;
  std::vector<double> observed;                 // its elements, column-major
  std::vector<std::vector<double>> replicated;  // [draw][element], chains one after another
  std::vector<TestStatistic> statistics;
};

struct RunPrediction {
  qint64 runId = -1;
  int drawsPerChain = 0;  // post-warmup draws of each chain it was computed from
  QString error;          // why there is nothing (empty on success)
  std::vector<ObservedPrediction> observed;
  /// Over all observed elements (log_lik.1 ... log_lik.n); none when LOO failed (note).
  std::optional<diagnostics::LooResult> loo;
  QString looNote;
  /// The LOO stored with the run, read back (stored_loo.h): nothing was replicated.
  bool looOnly = false;
};
using RunPredictionPtr = std::shared_ptr<const RunPrediction>;

/// The statistics of `observed` against `replicated` ([draw][element]).
std::vector<TestStatistic> testStatistics(const std::vector<double>& observed,
                                          const std::vector<std::vector<double>>& replicated);

/// Computes a run's prediction on the calling thread (the service's worker, or tests):
/// the model version and data set the run was sampled with come from the project file
/// at `projectPath`, its draws from `run` (or from the file when not loaded). The LOO is
/// stored with the run (stored_loo.h).
RunPrediction predictRun(const QString& projectPath, const RunData& run);

/// The run's LOO stored with it, as long as it covers the run's draws; else predictRun.
RunPrediction looOfRun(const QString& projectPath, const RunData& run);

}  // namespace variate::ui
