#pragma once
/// Connects the open document with the engine controller: starts runs from the document's
/// model, data and configuration, turns the controller's batches into the document's
/// runs, keeps summaries up to date, reads stored runs' draws when they are shown, and
/// continues finished runs ("run more draws").

#include <QObject>
#include <QPointer>
#include <QSet>

#include "ui/document/run_list.h"

namespace variate::ui {

class EngineController;
class ProjectDocument;
class RunLoader;
class SummaryService;
struct RunStart;
struct RunOutcome;
struct RunRequest;

class RunCoordinator : public QObject {
  Q_OBJECT

 public:
  explicit RunCoordinator(EngineController* engine, QObject* parent = nullptr);
  ~RunCoordinator() override;

  void setDocument(ProjectDocument* document);
  EngineController* engine() const { return engine_; }
  SummaryService* summaries() const { return summaries_; }
  bool isRunning() const;
  bool isPaused() const;
  /// Whether Pause can hold the run: not one on several processes, whose other ranks
  /// would wait for the held chain until they time out and fail the run, nor an SBC run
  /// (Stop ends it between replications; Continue SBC goes on).
  bool canPause() const;

  /// Starts a run of the document's current configuration; false with a message.
  bool startRun(QString* error);
  /// Continues a finished NUTS run from where its chains ended, with their adapted step
  /// sizes and metrics, for the configured number of draws, or a training from its latest
  /// checkpoint; false with a message.
  bool runMore(qint64 runId, QString* error);
  /// Follows again the worker's job of an interrupted run (reopening a project does this
  /// for its latest one): the draws the project lacks are filled in; false with a message.
  bool reattach(qint64 runId, QString* error);
  /// Continues an SBC run that did not finish: the replications it lacks (reopening a
  /// project does this for one a crash left interrupted); false with a message.
  bool continueSbc(qint64 runId, QString* error);
  /// Shows replication `index` of SBC run `runId` as a run of its own: the one fitted
  /// before, or a new fit of its simulated data (the replication's draws); false with a
  /// message.
  bool openReplicationFit(qint64 runId, int index, QString* error);
  void pause();
  void resume();
  void stop();
  /// The studio closes: a worker's job goes on (to reattach), a local run stops.
  void leave();

 signals:
  void runningChanged(bool running);
  void pausedChanged(bool paused);
  void runFailed(const QString& message);
  void runEnded(qint64 runId);

 private:
  bool start(const RunRequest& request, QString* error);
  void onStarted(const RunStart& start);
  void onEnded(const RunOutcome& outcome);
  void ensureLoaded(qint64 runId);

  EngineController* engine_;
  QPointer<ProjectDocument> document_;
  SummaryService* summaries_ = nullptr;
  RunLoader* loader_;
  QString pendingName_;
  qint64 pendingContinues_ = -1;
  bool pendingReattach_ = false;
  qint64 pendingDataSet_ = -1;
  RunConfig pendingConfig_;
  QSet<qint64> requested_;  // runs whose draws were asked of the loader
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
