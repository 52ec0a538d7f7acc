#pragma once
/// Optimization, the one driver every front end calls (`variate optimize`, the studio's
/// Optimize runs): the mode by L-BFGS from a random start (with or without the Jacobian;
/// the likelihood alone with mle), finished by Newton steps on the exact Hessian, and
/// draws from the Laplace approximation there (the Gaussian N(mode, (-H)^-1)), scored by
/// the PSIS k-hat of their importance ratios when they approximate the posterior (with
/// the Jacobian). The project records the Laplace draws, or the mode alone, as the run's
/// one chain, with the mode and L-BFGS's record beside its summary.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/summary_report.h"
#include "engine/optimize/find_mode.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"

namespace variate::services {

struct OptimizeResult {
  RunFacts facts;
  store::Id run_id = -1;
  bool jacobian = false;  ///< whether the density had the Jacobian (the setting's auto decided)
  ModeResult mode;
  /// L-BFGS's log density at iterations 0 (the start), 1, ..., before any Newton steps.
  std::vector<double> trace;
  bool converged = false;
  bool stopped = false;
  std::vector<std::string> names;  ///< the outputs (Stan CSV names)
  std::vector<std::string> bracketed;
  std::vector<double> mode_row;  ///< the outputs at the mode
  /// The Laplace draws, when asked for and the mode was found.
  std::optional<Rows> draw_rows;
  std::vector<double> log_p, log_g;
  std::string hessian_method;
  std::vector<io::SummaryRow> summary;  ///< of the Laplace draws
  double k_hat = NAN;                   ///< of the Laplace draws with the Jacobian
  /// The summary document (the draws' summary, "optimize", "laplace"): what
  /// --summary-json writes and the project stores.
  nlohmann::ordered_json document;
  /// Why the run failed though it recorded where it ended ("L-BFGS did not converge").
  std::string failure;
};

/// @throws ArgumentError (ReportedError for a compiler's report) for a spec or model that
/// cannot run (--mle with --jacobian, no finite start, a Laplace approximation at a
/// saddle); store::ProjectError. A run that started is recorded as failed first.
OptimizeResult run_optimize(const RunSpec& spec, const RunObservers& observers);

}  // namespace variate::services
