#pragma once
/// A run's convergence diagnostics as the canvas shows them on each node: the worst split
/// R-hat and lowest bulk ESS over the node's elements, its posterior mean ± sd, and whether
/// it is involved in divergent transitions. The thresholds are Vehtari et al. (2021):
/// R-hat below 1.01 and ESS above 400 for reliable estimates.

#include <cmath>

#include <QColor>
#include <QHash>
#include <QString>

namespace variate::ui {

/// One scalar quantity of a run ("mu", "theta[3]").
struct ParameterDiagnostics {
  double rhat = NAN;
  double ess = NAN;  // bulk
  double mean = NAN;
  double sd = NAN;
  bool divergent = false;  // involved in divergent transitions
};

struct NodeDiagnostics {
  enum class Health { Good, Doubtful, Bad, Unknown };
  int elements = 0;
  double worstRhat = NAN;
  double lowestEss = NAN;
  double mean = NAN;  // a scalar's; for several elements, the range of their means
  double sd = NAN;
  double lowestMean = NAN, highestMean = NAN;
  bool divergent = false;

  /// Good: R-hat < 1.01 and ESS >= 400; Bad: R-hat >= 1.05 or ESS < 100; else Doubtful.
  Health health() const;
  QColor tint() const;
  /// "0.42 ± 1.3" for a scalar, "8 values in [-1.2, 3.4]" for a vector.
  QString estimateText() const;
  /// "R̂ 1.003 · ESS 1520".
  QString convergenceText() const;
};

/// Groups element names ("theta[3]") under their node ("theta").
QHash<QString, NodeDiagnostics> diagnosticsByNode(const QHash<QString, ParameterDiagnostics>& parameters);

}  // namespace variate::ui
