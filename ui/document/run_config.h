#pragma once
/// The settings of one inference run as the run-configuration panel edits them and a
/// project records them (as JSON, next to the run).

#include <QJsonObject>
#include <QString>

namespace variate::ui {

enum class InferenceMethod { Nuts, Advi };

/// "NUTS" or "ADVI".
QString methodName(InferenceMethod method);

struct RunConfig {
  InferenceMethod method = InferenceMethod::Nuts;
  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  quint64 seed = 1;
  int threads = 0;  // 0: one per chain (every chain live)
  QString device = "cpu";
  // ADVI
  QString family = "meanfield";  // or "fullrank"
  int iterations = 10000;         // at most; ADVI stops earlier once converged
  int outputDraws = 1000;         // approximate-posterior draws recorded at the end

  QJsonObject toJson() const;
  /// Missing keys keep their defaults, so older projects still load.
  static RunConfig fromJson(const QJsonObject& json);

  bool operator==(const RunConfig& other) const { return toJson() == other.toJson(); }
  bool operator!=(const RunConfig& other) const { return !(*this == other); }
};

}  // namespace variate::ui
