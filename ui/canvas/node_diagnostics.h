#pragma once
/// A run's convergence diagnostics as the canvas shows them on each node: the worst split
/// R-hat and lowest ESS over the node's elements, its posterior mean ± sd, and whether it
/// is involved in divergent transitions. Each element is judged by the rule every report
/// applies (diagnostics/thresholds.h: R-hat below 1.01, bulk and tail ESS at least 100 per
/// chain); a node is flagged when one of its elements is.

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
  double essTail = NAN;
  int chains = 0;  // of the run: the ESS threshold scales with it
};

struct NodeDiagnostics {
  /// Good: every element passes the rule. LowEss: some ESS is too low, R-hat passes.
  /// HighRhat: some R-hat is too high. Unknown: no diagnostics.
  enum class Health { Good, LowEss, HighRhat, Unknown };
  int elements = 0;
  double worstRhat = NAN;
  double lowestEss = NAN;  // bulk or tail
  bool rhatHigh = false;   // an element's R-hat fails the rule
  bool essLow = false;     // an element's bulk or tail ESS fails it
  double mean = NAN;  // a scalar's; for several elements, the range of their means
  double sd = NAN;
  double lowestMean = NAN, highestMean = NAN;
  bool divergent = false;

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
