#pragma once
/// One inference run as the studio holds it in memory: configuration, status, the draws
/// of every chain (immutable blocks), per-chain progress, the ELBO trace of a variational
/// run (with a training's epochs and latest images), and the latest posterior summary.
/// Lives on the UI thread; snapshots of its chains can be read elsewhere.

#include <optional>
#include <vector>

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "engine/diagnostics/summary.h"

#include "ui/document/approximation_check.h"
#include "ui/document/chain_draws.h"
#include "ui/document/elbo_trace.h"
#include "ui/document/run_config.h"
#include "ui/document/sbc_replications.h"
#include "ui/document/training_preview.h"

namespace variate::ui {

enum class RunStatus { Running, Paused, Finished, Stopped, Interrupted, Failed };

/// "running", "paused", "finished", "stopped", "interrupted", "failed" (as projects store it).
QString statusName(RunStatus status);

/// Where a chain stands, for "run more draws" and the sampler-statistics panel.
struct ChainState {
  std::optional<double> stepSize;            // adapted (known once warmup ended)
  std::vector<double> inverseMetric;         // adapted
  std::vector<double> lastPosition;          // unconstrained, once the chain finished
  bool finished = false;
  bool stoppedEarly = false;                 // it ended at a stop request, before its draws were made
  qint64 firstDrawMs = -1;                   // clock of the first draw seen (ms since epoch)
  qint64 lastDrawMs = -1;
  int iterationsAtFirstDraw = 0;
};

/// The posterior summary of a run and what it was computed from.
struct RunSummary {
  std::vector<diagnostics::ParameterSummary> rows;
  int chains = 0;  // the ESS thresholds scale with it (diagnostics/thresholds.h)
  int drawsPerChain = 0;
  bool fromWarmup = false;  // no sampling draws yet: computed on the warmup draws
  bool independentDraws = false;  // from an approximation: no R-hat, no ESS
  // What a live summary covers and when: it lags the sampler by its interval.
  int iterations = 0;      // the chains' least iterations (warmup included) in its snapshot
  qint64 snapshotMs = -1;  // when its draws were taken (ms since the epoch)
  int computeMs = 0;       // the CPU time it took
  int stride = 1;          // a long live run's summary reads every stride-th draw
};

/// Views read a run through RunList's shared_ptr<const RunData>; only RunList changes
/// one, in methods that signal what changed.
class RunData {
 public:
  qint64 id = -1;  // in the project file
  QString name;
  RunConfig config;
  /// The seed it ran with (drawn at random when the configuration named none).
  quint64 seed = 0;
  RunStatus status = RunStatus::Running;
  QString message;  // why it failed, or a note
  QDateTime started;
  QDateTime ended;
  qint64 modelVersion = -1;
  qint64 dataSetId = -1;  // -1: the model reads no data
  /// Output columns, bracketed ("theta[1]"): parameters first, then derived quantities.
  QStringList columnNames;
  int parameterColumns = 0;
  std::vector<ChainDraws> chains;
  std::vector<ChainState> chainStates;
  ElboTrace elbo;
  /// What an approximation's run (ADVI, Optimize, Pathfinder) recorded about its draws:
  /// k-hat, ADVI's start, the mode. Empty for other runs and until the run ends.
  ApproximationCheck approximation;
  /// A training's latest images; null for other runs and before the first.
  TrainingPreviewPtr preview;
  /// An SBC run's replications (read with its draws, or live); empty for other runs.
  SbcReplications sbc;
  RunSummary summary;
  /// Live runs have their draws from the start; runs read from the project get them on demand.
  bool drawsLoaded = false;
  /// Draws per chain after warmup in the file (the shortest chain's), for a run whose
  /// draws are not loaded.
  qint64 storedDraws = 0;

  bool isActive() const { return status == RunStatus::Running || status == RunStatus::Paused; }
  /// Rows every chain will make (warmup + draws for NUTS, less the reparameterization
  /// pilot's iterations, which have none).
  int plannedIterations() const;
  /// Draws per chain of the shortest chain, warmup excluded.
  int samplingDrawsPerChain() const;
  /// The summary covers the draws the chains hold now (summarizeSnapshot's choice of
  /// draws); false while a newer one is being computed, e.g. just after the run ended.
  bool summaryIsCurrent() const;
  /// Draws per second of a chain over the iterations seen live, and its expected
  /// seconds to finish (nullopt when not measurable yet).
  std::optional<double> drawsPerSecond(int chain) const;
  std::optional<double> secondsLeft(int chain) const;

  /// Adds a block to its chain, noting the clock for the rate and the ETA.
  void append(const DrawBlockPtr& block, qint64 nowMs);
  int columnIndex(const QString& name) const { return columnNames.indexOf(name); }
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::RunSummary)
