#pragma once
/// Computes the posterior predictive draws and PSIS-LOO of finished NUTS runs
/// (run_prediction.h) on a thread of its own, one run at a time, and keeps each result
/// for the panels that show it (the predictive check and LOO panels share one service).
/// A run's LOO is stored with it in the project, and read back instead of computed
/// while it covers the run's draws (stored_loo.h).

#include <map>

#include <QList>
#include <QObject>
#include <QSet>

#include "ui/analysis/run_prediction.h"
#include "ui/document/run_list.h"

namespace variate::ui {

/// What a panel needs of a run: its LOO only (stored or computed), or y_rep too.
enum class PredictionNeed { Loo, Replications };

class PredictionService : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;
  ~PredictionService() override;

  /// Starts computing the prediction of `run`, a finished NUTS run of the project at
  /// `projectPath`, unless it is under way or known, with what `need` asks for, for the
  /// run's draws as they are now. Returns whether it is known (result() has it).
  bool request(const QString& projectPath, const RunPtr& run, PredictionNeed need);
  /// nullptr until computed.
  RunPredictionPtr result(qint64 runId) const;
  bool computing(qint64 runId) const { return running_.contains(runId); }
  /// Forgets every result (another project was opened).
  void clear();

 signals:
  void computed(qint64 runId);

 private:
  QString projectPath_;
  std::map<qint64, RunPredictionPtr> results_;
  QSet<qint64> running_;
  QList<class QThread*> threads_;
};

}  // namespace variate::ui
