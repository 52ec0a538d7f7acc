#pragma once
// Eight schools' pointwise log likelihood at a run's draws, written out from the model's
// likelihood y_j ~ Normal(theta_j, sigma_j) rather than by tracing, to check what the
// studio computes against; and the data it reads.

#include <cmath>
#include <vector>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "engine/diagnostics/draws.h"

#include "tests/ui/studio_test_support.h"
#include "ui/document/run_data.h"

namespace studio_test {

inline std::vector<double> eightSchoolsData(const QString& name) {
  QFile file(kProjects + "eight_schools/data.json");
  if (!file.open(QIODevice::ReadOnly)) return {};
  std::vector<double> values;
  for (const auto& value : QJsonDocument::fromJson(file.readAll()).object().value(name).toArray()) values.push_back(value.toDouble());
  return values;
}

/// log_lik[school][chain][draw] over the run's post-warmup draws.
inline std::vector<variate::diagnostics::Draws> eightSchoolsLogLik(const variate::ui::RunData& run) {
  const std::vector<double> y = eightSchoolsData("y"), sigma = eightSchoolsData("sigma");
  std::vector<variate::diagnostics::Draws> logLik(y.size(), variate::diagnostics::Draws(run.chains.size()));
  for (size_t j = 0; j < y.size(); ++j) {
    const int column = run.columnIndex(QString("theta[%1]").arg(j + 1));
    for (size_t c = 0; c < run.chains.size(); ++c) {
      const auto& chain = run.chains[c];
      chain.forEach(column, chain.warmupIterations(), chain.iterations(), [&](int, double theta) {
        const double z = (y[j] - theta) / sigma[j];
        logLik[j][c].push_back(-0.5 * std::log(2 * M_PI) - std::log(sigma[j]) - 0.5 * z * z);
      });
    }
  }
  return logLik;
}

}  // namespace studio_test
