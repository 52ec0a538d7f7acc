#include "ui/modeling/distribution_catalog.h"

#include <algorithm>

#include "engine/model/distribution_support.h"
#include "engine/model/distribution_table.h"

namespace variate::ui {
namespace {

using Kind = Support::Kind;

QString groupOf(const model::FamilySupport& support) {
  if (support.from_component) return "Mixtures";
  switch (support.kind) {
    case Kind::Real: return support.event_rank == 0 ? "Real line" : "Real vectors";
    case Kind::LowerBounded: return "Positive";
    case Kind::UpperBounded: return "Bounded above";
    case Kind::Interval: return "Interval";
    case Kind::Ordered:
    case Kind::PositiveOrdered: return "Ordered vectors";
    case Kind::Simplex: return "Simplex";
    case Kind::CholeskyCorr: return "Correlation (Cholesky factor)";
    case Kind::Boolean: return "Binary";
    case Kind::NonNegativeInteger: return "Counts";
    case Kind::IntegerInterval: return "Bounded integers";
  }
  return "Other";
}

// A neutral starting value: locations and log-scale parameters 0, probabilities 0.5,
// intervals (0, 1), scales, shapes, rates and a discrete family's mean 1.
QString defaultArgument(const model::ParameterSpec& parameter, bool discrete) {
  const QString name = parameter.name;
  if (parameter.is_distribution) return "Normal(0, 1)";
  if ((name == "mu" && !discrete) || name == "lo" || name == "logits" || name == "log_rate") return "0";
  if (name == "p") return "0.5";
  return "1";
}

QList<FamilyInfo> buildFamilies() {
  QList<FamilyInfo> families;
  for (const auto& name : model::distribution_names()) {
    const auto* signature = model::find_distribution(name);
    const auto support = model::family_support(name);
    FamilyInfo family;
    family.name = QString::fromStdString(name);
    family.signature = QString::fromStdString(model::describe(*signature));
    family.eventRank = static_cast<int>(signature->event_rank);
    if (support) {
      family.group = groupOf(*support);
      family.support = QString::fromStdString(support->description);
      family.discrete = support->kind == Kind::Boolean || support->kind == Kind::NonNegativeInteger ||
                        support->kind == Kind::IntegerInterval;
    }
    for (const auto& parameters : signature->parameterizations) {
      QList<ParameterInfo> list;
      for (const auto& p : parameters) {
        list << ParameterInfo{p.name, static_cast<int>(p.event_rank), p.is_distribution,
                              defaultArgument(p, family.discrete)};
      }
      family.parameterizations << list;
    }
    families << family;
  }
  const QStringList order = catalog::groups();
  std::stable_sort(families.begin(), families.end(), [&](const FamilyInfo& a, const FamilyInfo& b) {
    const auto ia = order.indexOf(a.group), ib = order.indexOf(b.group);
    return ia != ib ? ia < ib : a.name < b.name;
  });
  return families;
}

}  // namespace

QString FamilyInfo::defaultCall() const {
  QStringList arguments;
  for (const auto& p : parameterizations.value(0)) arguments << p.defaultText;
  return name + "(" + arguments.join(", ") + ")";
}

int FamilyInfo::parameterizationOf(const QStringList& names) const {
  for (int i = 0; i < parameterizations.size(); ++i) {
    QStringList own;
    for (const auto& p : parameterizations[i]) own << p.name;
    if (own == names) return i;
  }
  return -1;
}

namespace catalog {

const QList<FamilyInfo>& families() {
  static const QList<FamilyInfo> instance = buildFamilies();
  return instance;
}

const FamilyInfo* find(const QString& name) {
  for (const auto& family : families()) {
    if (family.name == name) return &family;
  }
  return nullptr;
}

QStringList groups() {
  return {"Real line", "Positive", "Interval", "Bounded above", "Binary", "Counts",
          "Bounded integers", "Real vectors", "Ordered vectors", "Simplex",
          "Correlation (Cholesky factor)", "Mixtures", "Other"};
}

}  // namespace catalog

}  // namespace variate::ui
