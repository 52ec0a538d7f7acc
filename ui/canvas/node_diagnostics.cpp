#include "ui/canvas/node_diagnostics.h"

#include <algorithm>

#include <QObject>

#include "engine/diagnostics/thresholds.h"

namespace variate::ui {
namespace {

QString number(double value) {
  if (!std::isfinite(value)) return "NA";
  return QString::number(value, 'g', std::abs(value) >= 100 ? 4 : 3);
}

double maxOf(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
double minOf(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }

}  // namespace

NodeDiagnostics::Health NodeDiagnostics::health() const {
  if (elements == 0 || (std::isnan(worstRhat) && std::isnan(lowestEss))) return Health::Unknown;
  if (rhatHigh) return Health::HighRhat;
  if (essLow) return Health::LowEss;
  return Health::Good;
}

// The diagnostics table's colours for the same verdicts.
QColor NodeDiagnostics::tint() const {
  switch (health()) {
    case Health::Good: return QColor("#d4efcf");
    case Health::LowEss: return QColor("#ffe0b2");
    case Health::HighRhat: return QColor("#ffcdd2");
    case Health::Unknown: break;
  }
  return QColor();
}

QString NodeDiagnostics::estimateText() const {
  if (elements == 1) return QString("%1 ± %2").arg(number(mean), number(sd));
  return QObject::tr("%1 values in [%2, %3]").arg(elements).arg(number(lowestMean), number(highestMean));
}

QString NodeDiagnostics::convergenceText() const {
  return QString("R̂ %1 · ESS %2")
      .arg(std::isfinite(worstRhat) ? QString::number(worstRhat, 'f', 3) : QString("NA"),
           std::isfinite(lowestEss) ? QString::number(std::round(lowestEss)) : QString("NA"));
}

QHash<QString, NodeDiagnostics> diagnosticsByNode(const QHash<QString, ParameterDiagnostics>& parameters) {
  QHash<QString, NodeDiagnostics> nodes;
  for (auto it = parameters.begin(); it != parameters.end(); ++it) {
    const QString& name = it.key();
    const int bracket = name.indexOf('[');
    const QString node = bracket < 0 ? name : name.left(bracket);
    const ParameterDiagnostics& p = it.value();
    NodeDiagnostics& d = nodes[node];
    ++d.elements;
    d.worstRhat = maxOf(d.worstRhat, p.rhat);
    d.lowestEss = minOf(d.lowestEss, minOf(p.ess, p.essTail));
    const diagnostics::ConvergenceVerdict verdict =
        diagnostics::convergence_verdict(p.rhat, p.ess, p.essTail, p.chains);
    d.rhatHigh = d.rhatHigh || verdict.rhat_high;
    d.essLow = d.essLow || verdict.ess_low;
    d.lowestMean = minOf(d.lowestMean, p.mean);
    d.highestMean = maxOf(d.highestMean, p.mean);
    d.mean = p.mean;
    d.sd = p.sd;
    d.divergent = d.divergent || p.divergent;
  }
  for (auto& d : nodes) {
    if (d.elements > 1) d.mean = d.sd = NAN;
  }
  return nodes;
}

}  // namespace variate::ui
