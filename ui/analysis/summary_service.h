#pragma once
/// Keeps the posterior summary (mean, sd, quantiles, split R-hat, bulk/tail ESS, MCSE)
/// of the runs on screen up to date: off the UI thread, on a snapshot of the chains
/// (blocks are shared, not copied), newest request wins, and a live run at most once a
/// second (less often when a summary takes long) — so even 100 parameters × 400,000 draws
/// never stall the UI nor take much from the sampler.

#include <QElapsedTimer>
#include <QObject>
#include <QSet>
#include <QThread>
#include <QTimer>

#include "ui/document/run_list.h"

namespace variate::ui {

/// The chains of a run at one moment, safe to read on another thread.
struct RunSnapshot {
  qint64 runId = -1;
  QStringList columns;
  std::vector<ChainDraws> chains;
  /// Independent draws from an approximation (services::draws_are_independent()).
  bool independentDraws = false;
};

/// The summary of a snapshot: post-warmup draws of every chain cut to the shortest, or
/// the warmup draws while there are none. A column whose draws the diagnostics reject
/// (too few) gets NaN fields. Independent draws get no R-hat nor ESS (NaN: they estimate
/// nothing there) and the exact MCSE sd / sqrt(S); a column of too few of them still gets
/// its mean and quantiles (a mode's one draw).
RunSummary summarizeSnapshot(const RunSnapshot& snapshot);

class SummaryService : public QObject {
  Q_OBJECT

 public:
  explicit SummaryService(RunList* runs, QObject* parent = nullptr);
  ~SummaryService() override;

  /// Summarize this run soon (immediately when idle).
  void request(qint64 runId);
  bool busy() const { return busy_; }

 signals:
  /// After a summary was stored in the run list.
  void summarized(qint64 runId);

 private:
  void startNext();
  void finished(qint64 runId, const RunSummary& summary);

  RunList* runs_;
  QThread thread_;
  QObject* worker_;
  QSet<qint64> pending_;
  bool busy_ = false;
  QTimer wait_;
  QElapsedTimer sinceLive_;
  static constexpr int kLiveIntervalMs = 1000;  // a live run is summarized at most this often
  int lastComputeMs_ = 0;  // the interval grows with it: summaries take ~3% of a core
  QElapsedTimer computing_;
};

}  // namespace variate::ui
