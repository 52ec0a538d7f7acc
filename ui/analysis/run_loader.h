#pragma once
/// Reads a stored run's draws on a thread of its own, with its own connection to the
/// project file, so opening a run of millions of draws never stalls the UI.

#include <memory>

#include <QObject>
#include <QString>

#include "ui/document/run_data.h"

namespace variate::ui {

struct LoadedRun {
  QString projectPath;
  qint64 runId = -1;
  std::vector<ChainDraws> chains;
  std::vector<ChainState> states;
  ElboTrace elbo;
  ApproximationCheck approximation;
  SbcReplications sbc;  // an SBC run's
  QString error;  // empty on success
};
using LoadedRunPtr = std::shared_ptr<const LoadedRun>;

class RunLoader : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;
  ~RunLoader() override;

  /// Starts reading; `loaded` follows on the UI thread.
  void load(const QString& projectPath, qint64 runId);
  /// Reads on the calling thread (for tests and small runs).
  static LoadedRun read(const QString& projectPath, qint64 runId);
  int pending() const { return pending_; }

 signals:
  void loaded(const variate::ui::LoadedRunPtr& run);

 private:
  int pending_ = 0;
  QList<QThread*> threads_;
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::LoadedRunPtr)
