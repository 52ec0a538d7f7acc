#pragma once
/// How far the independent draws of an approximation's run (ADVI, Laplace, Pathfinder)
/// can be trusted: the PSIS k-hat of their importance ratios p/q (Yao, Vehtari, Simpson &
/// Gelman 2018, "Yes, but did it work?"), as the run stores it with its diagnostics, and
/// what the run says of where it started and ended. Plain values: they cross from the
/// engine thread in a live update and are read back from the project.
///
///   const ApproximationCheck check = approximationCheck(diagnostics);
///   if (check.unreliable()) warn(check.paretoK);

#include <optional>
#include <vector>

#include <QString>

#include "ui/document/elbo_trace.h"
#include <QStringList>

namespace variate::ui {

struct ApproximationCheck {
  /// NaN: not computable (a draw's log density is NaN); unset: not recorded.
  std::optional<double> paretoK;
  /// Whether the run recorded k-hat or it was computed from its stored draws' log_p__ and
  /// log_g__ (a run recorded before the studio stored it).
  bool fromStoredDraws = false;
  /// ADVI: where the optimization started, "pathfinder", "laplace" or "random".
  QString start;
  /// Optimize: the mode's output values by column name (empty for other runs) and its
  /// log density.
  QStringList modeNames;
  std::vector<double> modeValues;
  std::optional<double> modeLogDensity;

  bool empty() const { return !paretoK && start.isEmpty() && modeNames.isEmpty(); }
  /// k-hat above diagnostics::kPsisKHatThreshold (0.7), or not computable.
  bool unreliable() const;
};

/// The threshold above which k-hat says the approximation is not to be trusted.
double paretoKThreshold();

/// PSIS k-hat of `logRatios` (log p - log q); NaN when one is NaN or +inf, or there are
/// fewer than 2.
double importanceKHat(const std::vector<double>& logRatios);

/// The check a run stored with its summary document (the services' "variational",
/// "pathfinder", "optimize" and "laplace" records, or an older studio's "advi"); empty
/// when none.
ApproximationCheck approximationCheck(const std::string& diagnostics);

/// The iteration where an ADVI run's convergence rule first passed, as its summary
/// document records it; -1 when it did not or there is none.
int convergedAt(const std::string& diagnostics);

/// The L-BFGS paths a run's summary document records: Pathfinder's ELBO by path and
/// iteration, or an optimization's log density by iteration (ElboTrace::pathPoints);
/// empty for other runs and for runs stored before documents kept them.
std::vector<PathPoint> pathTraces(const std::string& diagnostics);

/// "Pareto k-hat 0.42" ("not available" for NaN).
QString kHatText(double kHat);

}  // namespace variate::ui
