#pragma once
/// The distribution families the canvas offers, as plain Qt values: their parameters (with
/// a default argument for a new node) and the palette group of their support, all read
/// from the engine's distribution table and support so the palette never drifts from the
/// language. (It is in ui/modeling, which sees ATen, because those engine headers pull it
/// in; the header itself is plain Qt, for the canvas.)

#include <QList>
#include <QString>
#include <QStringList>

namespace variate::ui {

struct ParameterInfo {
  QString name;        // "mu", "log_rate", "component"
  int eventRank = 0;   // 1 for a vector parameter (Dirichlet's alpha), 2 for a matrix
  bool isDistribution = false;  // a Mixture's component
  QString defaultText;  // the argument a new node starts with: "0", "1", "Normal(0, 1)"
};

struct FamilyInfo {
  QString name;  // "Normal"
  /// The first is positional; the others are chosen by named arguments (`logits = `).
  QList<QList<ParameterInfo>> parameterizations;
  QString group;        // "Real line", "Positive", ... (see groups())
  QString support;      // the engine's description: "positive", "interval(0, 1)"
  QString signature;    // "Bernoulli(p | logits =)"
  bool discrete = false;
  int eventRank = 0;    // dimensions one draw spans (MultiNormal 1, LKJCorrCholesky 2)

  /// "Normal(0, 1)": the call a new node of this family starts with.
  QString defaultCall() const;
  /// The parameterization whose parameter names are exactly `names`, or -1.
  int parameterizationOf(const QStringList& names) const;
};

namespace catalog {

/// Every family, by palette group (in groups() order) and then by name.
const QList<FamilyInfo>& families();
/// nullptr for an unknown name.
const FamilyInfo* find(const QString& name);
/// Palette groups in the order they are shown: continuous supports first, then discrete,
/// then structured ones.
QStringList groups();

}  // namespace catalog

}  // namespace variate::ui
