#pragma once
/// ADVI, the one driver every front end calls (`variate fit`, the studio's ADVI runs, a
/// worker's jobs, the other ranks): binds the model, agrees on the seed, fits the
/// Gaussian family (started from and whitened by Pathfinder's estimate, or at random as
/// Stan's ADVI), records the ELBO as it comes, then draws from the fit and scores the
/// draws by the PSIS k-hat of their importance ratios p/q (Yao et al. 2018); the draws,
/// their summary and the fit's record go into the project.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/summary_report.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"
#include "engine/vi/advi.h"
#include "engine/vi/elbo_trend.h"

namespace variate::services {

struct FitResult {
  /// False on the other ranks of a run on several processes: they report nothing.
  bool root = true;
  RunFacts facts;
  store::Id run_id = -1;
  std::string job;  ///< the worker's job that made it
  AdviFit fit;
  /// A note on why the fit started at random although Pathfinder was asked for.
  std::string fallback;
  int converged_at = -1;  ///< the iteration where the convergence rule first passed
  /// The output draws: each draw's outputs, log p and log q (CmdStan's log_p__, log_g__),
  /// and the outputs at the approximation's mean.
  Rows rows;
  std::vector<double> log_p, log_q;
  std::vector<double> mean_row;
  std::vector<double> mean_position;  ///< the approximation's mean, unconstrained
  std::vector<std::string> names;  ///< the outputs' Stan CSV names
  std::vector<io::SummaryRow> summary;
  double k_hat = 0;
  ElboTrend trend;
  /// The summary document, with "variational": what --summary-json writes and the
  /// project stores.
  nlohmann::ordered_json document;
  bool stopped = false;
};

/// @throws ArgumentError (ReportedError for a compiler's report) for a spec or model
/// that cannot run, or a fit that failed (every eta made the ELBO worse; it diverged);
/// distributed::DistributedError; RemoteError; store::ProjectError. A run that started is
/// recorded as failed first.
FitResult run_fit(const RunSpec& spec, const RunObservers& observers);

/// Where a fit started (AdviFit::start), in a sentence for the run's log.
std::string start_note(const std::string& start);

/// The settings' AdviOptions with `seed`.
AdviOptions advi_options(const Settings& settings, uint64_t seed);

}  // namespace variate::services
