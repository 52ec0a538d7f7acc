#pragma once
/// Keeps the posterior summary (mean, sd, quantiles, split R-hat, bulk/tail ESS, MCSE)
/// of the runs on screen up to date: off the UI thread, on a snapshot of the chains
/// (blocks are shared, not copied), newest request wins, and a live run at most once a
/// second (less often when a summary takes long) — so even 100 parameters × 400,000 draws
/// never stall the UI nor take much from the sampler.

#include <algorithm>

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
  qint64 takenMs = -1;
  /// Every stride-th draw is summarized: a live run's summaries cost the same however
  /// long it runs (the last one, once it ended, reads every draw).
  int stride = 1;
};

/// The summary of a snapshot: post-warmup draws of every chain cut to the shortest, or
/// the warmup draws while there are none. A column whose draws the diagnostics reject
/// (too few) gets NaN fields. Independent draws get no R-hat nor ESS (NaN: they estimate
/// nothing there) and the exact MCSE sd / sqrt(S); a column of too few of them still gets
/// its mean and quantiles (a mode's one draw).
RunSummary summarizeSnapshot(const RunSnapshot& snapshot);

/// A live run's draws per chain a summary reads at most (thinned beyond).
constexpr int kLiveDrawsPerChain = 2000;

/// How long a live run waits between summaries: about 3% of a core (30 times a
/// summary's CPU time), at least a second and at most 30 s.
inline int liveIntervalMs(int computeMs) { return std::clamp(30 * computeMs, 1000, 30000); }

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
  int lastComputeMs_ = 0;  // a live run's last summary's CPU time
};

}  // namespace variate::ui
