#include "ui/document/approximation_check.h"

#include <cmath>
#include <limits>

#include <QJsonArray>
#include <QObject>

#include "engine/diagnostics/psis.h"

namespace variate::ui {
namespace {

// The method objects of a stored diagnostics document that may carry k-hat.
const char* const kMethodKeys[] = {"advi", "pathfinder", "optimize"};

}  // namespace

bool ApproximationCheck::unreliable() const {
  return paretoK && (std::isnan(*paretoK) || *paretoK > paretoKThreshold());
}

double paretoKThreshold() { return diagnostics::kPsisKHatThreshold; }

double importanceKHat(const std::vector<double>& logRatios) { return diagnostics::importance_k_hat(logRatios); }

QJsonValue kHatToJson(double kHat) {
  if (std::isnan(kHat)) return QJsonValue(QJsonValue::Null);
  if (std::isinf(kHat)) return QStringLiteral("Inf");
  return kHat;
}

std::optional<double> kHatFromJson(const QJsonValue& value) {
  if (value.isDouble()) return value.toDouble();
  if (value.isNull()) return std::numeric_limits<double>::quiet_NaN();
  if (value.isString() && value.toString() == "Inf") return std::numeric_limits<double>::infinity();
  return std::nullopt;
}

ApproximationCheck approximationCheck(const QJsonObject& diagnostics) {
  ApproximationCheck check;
  for (const char* key : kMethodKeys) {
    const QJsonObject method = diagnostics[key].toObject();
    if (method.contains("pareto_k")) check.paretoK = kHatFromJson(method["pareto_k"]);
  }
  check.start = diagnostics["advi"].toObject()["start"].toString();
  const QJsonObject optimize = diagnostics["optimize"].toObject();
  const QJsonArray names = optimize["mode_names"].toArray(), values = optimize["mode"].toArray();
  for (int i = 0; i < names.size() && i < values.size(); ++i) {
    check.modeNames << names[i].toString();
    check.modeValues.push_back(values[i].isDouble() ? values[i].toDouble() : std::nan(""));
  }
  if (optimize["log_density"].isDouble()) check.modeLogDensity = optimize["log_density"].toDouble();
  return check;
}

QString kHatText(double kHat) {
  if (std::isnan(kHat)) return QObject::tr("Pareto k-hat not available (a draw's log density is NaN)");
  return QObject::tr("Pareto k-hat %1").arg(kHat, 0, 'f', 2);
}

}  // namespace variate::ui
