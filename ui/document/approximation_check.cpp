#include "ui/document/approximation_check.h"

#include <cmath>
#include <limits>

#include <QObject>

#include <nlohmann/json.hpp>

#include "engine/diagnostics/psis.h"

namespace variate::ui {
namespace {

// The records of a stored summary document that may carry k-hat: the services' and an
// older studio's ("advi", and k-hat under "optimize").
const char* const kKHatKeys[] = {"variational", "pathfinder", "laplace", "advi", "optimize"};

std::optional<double> kHatOf(const nlohmann::ordered_json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (value.is_string() && value.get<std::string>() == "Inf") return std::numeric_limits<double>::infinity();
  return std::nullopt;
}

const nlohmann::ordered_json& record(const nlohmann::ordered_json& document, const char* key) {
  static const nlohmann::ordered_json none = nlohmann::ordered_json::object();
  const auto it = document.find(key);
  return it != document.end() && it->is_object() ? *it : none;
}

}  // namespace

bool ApproximationCheck::unreliable() const {
  return paretoK && (std::isnan(*paretoK) || *paretoK > paretoKThreshold());
}

double paretoKThreshold() { return diagnostics::kPsisKHatThreshold; }

double importanceKHat(const std::vector<double>& logRatios) { return diagnostics::importance_k_hat(logRatios); }

ApproximationCheck approximationCheck(const std::string& diagnostics) {
  ApproximationCheck check;
  const nlohmann::ordered_json document = nlohmann::ordered_json::parse(diagnostics, nullptr, false);
  if (!document.is_object()) return check;
  for (const char* key : kKHatKeys) {
    const auto& method = record(document, key);
    if (method.contains("pareto_k")) check.paretoK = kHatOf(method["pareto_k"]);
  }
  for (const char* key : {"variational", "advi"}) {
    const auto& fit = record(document, key);
    if (fit.contains("start") && fit["start"].is_string()) check.start = QString::fromStdString(fit["start"]);
  }
  const auto& optimize = record(document, "optimize");
  if (const auto mode = optimize.find("mode"); mode != optimize.end() && mode->is_object()) {
    for (const auto& [name, value] : mode->items()) {  // in the columns' order
      check.modeNames << QString::fromStdString(name);
      check.modeValues.push_back(value.is_number() ? value.get<double>() : std::nan(""));
    }
  }
  if (optimize.contains("log_density") && optimize["log_density"].is_number()) {
    check.modeLogDensity = optimize["log_density"].get<double>();
  }
  return check;
}

int convergedAt(const std::string& diagnostics) {
  const nlohmann::ordered_json document = nlohmann::ordered_json::parse(diagnostics, nullptr, false);
  if (!document.is_object()) return -1;
  for (const char* key : {"variational", "advi"}) {
    const auto& fit = record(document, key);
    if (fit.contains("converged_at") && fit["converged_at"].is_number_integer()) return fit["converged_at"];
  }
  return -1;
}

std::vector<PathPoint> pathTraces(const std::string& diagnostics) {
  const nlohmann::ordered_json document = nlohmann::ordered_json::parse(diagnostics, nullptr, false);
  std::vector<PathPoint> points;
  if (!document.is_object()) return points;
  const auto value = [](const nlohmann::ordered_json& v) { return v.is_number() ? v.get<double>() : std::nan(""); };
  const auto& pathfinder = record(document, "pathfinder");
  if (const auto paths = pathfinder.find("paths"); paths != pathfinder.end() && paths->is_array()) {
    for (size_t p = 0; p < paths->size(); ++p) {
      const auto& elbo = (*paths)[p].contains("elbo") ? (*paths)[p]["elbo"] : nlohmann::ordered_json::array();
      for (size_t i = 0; elbo.is_array() && i < elbo.size(); ++i) {
        points.push_back({static_cast<int>(p), static_cast<int>(i) + 1, value(elbo[i])});
      }
    }
  }
  const auto& optimize = record(document, "optimize");
  if (const auto trace = optimize.find("trace"); trace != optimize.end() && trace->is_array()) {
    for (size_t i = 0; i < trace->size(); ++i) points.push_back({0, static_cast<int>(i), value((*trace)[i])});
  }
  return points;
}

QString kHatText(double kHat) {
  if (std::isnan(kHat)) return QObject::tr("Pareto k-hat not available (a draw's log density is NaN)");
  return QObject::tr("Pareto k-hat %1").arg(kHat, 0, 'f', 2);
}

}  // namespace variate::ui
