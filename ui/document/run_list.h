#pragma once
/// The runs of an open project, in the order they were made, with the current run and
/// the one it is compared with. Owned by the project document; views read runs as
/// shared_ptr<const RunData> and listen to its signals. Every change goes through one of
/// its methods, which emits the signal that says what changed. Live runs grow here as
/// the engine controller's batches arrive.

#include <map>
#include <memory>

#include <QObject>

#include "ui/document/live_update.h"
#include "ui/document/run_data.h"

namespace variate::ui {

/// What views get: a run they can read, never change.
using RunPtr = std::shared_ptr<const RunData>;

class RunList : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

  QList<qint64> ids() const { return order_; }
  int size() const { return order_.size(); }
  /// nullptr when there is no such run.
  RunPtr run(qint64 id) const;
  RunPtr current() const { return run(current_); }
  RunPtr comparison() const { return run(comparison_); }
  qint64 currentId() const { return current_; }
  qint64 comparisonId() const { return comparison_; }

  /// Adds a run (replacing one with the same id) and makes it current, unless
  /// `makeCurrent` is false (a run another process added).
  void add(RunData run, bool makeCurrent = true);
  void remove(qint64 id);
  void clear();
  void setCurrent(qint64 id);
  /// -1 to compare with nothing.
  void setComparison(qint64 id);

  /// Appends a live batch to the run and signals what changed.
  void applyLiveUpdate(qint64 id, const LiveUpdate& update);
  void setStatus(qint64 id, RunStatus status, const QString& message = QString());
  void setName(qint64 id, const QString& name);
  void setSummary(qint64 id, RunSummary summary);
  /// Draws read back from the project replace the run's chains (and its ELBO trace and
  /// approximation check); the run's draws count as loaded from then on.
  void setDraws(qint64 id, std::vector<ChainDraws> chains, std::vector<ChainState> states, ElboTrace elbo = {},
                ApproximationCheck approximation = {});
  /// "Run more draws" started: the run is running again for `moreDraws` more draws per
  /// chain, its chains unfinished and their rates measured afresh.
  void continueRun(qint64 id, int moreDraws);
  /// A training continues from its checkpoint after `checkpointStep` (the ELBO and epochs
  /// after it are redone), for `epochs` epochs in all.
  void continueTraining(qint64 id, long long checkpointStep, int epochs);
  /// An SBC run's replications read back from the project (or none, before a continued
  /// run's arrive again live).
  void setSbc(qint64 id, SbcReplications replications);
  /// A training's images, computed from its stored weights (a reopened project).
  void setPreview(qint64 id, TrainingPreviewPtr preview);
  /// Name, status, message, times and stored draws as the project file records them
  /// (`record.id` names the run).
  void setRecorded(const RunData& record);

 signals:
  void runAdded(qint64 id);
  void runRemoved(qint64 id);
  /// Status, name, configuration or timing changed.
  void runChanged(qint64 id);
  /// The batches of one live update, in chain order of arrival.
  void drawsAppended(qint64 id, const variate::ui::DrawBlocks& blocks);
  /// The run's draws were replaced wholesale (read back from the project).
  void drawsReset(qint64 id);
  void chainStateChanged(qint64 id, int chain);
  /// ELBO points or a training's epochs arrived.
  void elboAppended(qint64 id);
  /// A training's latest images (TrainingPreview) changed.
  void previewChanged(qint64 id);
  void summaryChanged(qint64 id);
  /// An SBC run's replications changed (more ended, or they were read back).
  void sbcChanged(qint64 id);
  void currentChanged(qint64 id);
  void comparisonChanged(qint64 id);

 private:
  RunData* find(qint64 id) const;

  std::map<qint64, std::shared_ptr<RunData>> runs_;
  QList<qint64> order_;
  qint64 current_ = -1;
  qint64 comparison_ = -1;
};

}  // namespace variate::ui
