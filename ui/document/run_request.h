#pragma once
/// Everything the engine thread needs to start a run, as plain values copied off the
/// document: the worker never touches the document.

#include <optional>
#include <vector>

#include <QMetaType>
#include <QString>

#include "ui/document/run_config.h"

namespace variate::ui {

/// Where an adapted chain left off, for "run more draws".
struct ChainResume {
  std::vector<double> position;  // unconstrained
  double stepSize = 0;
  std::vector<double> inverseMetric;
  int iterations = 0;  // rows the chain has already: the new draws follow them
  int warmup = 0;      // of those, warmup
};

struct RunRequest {
  QString projectPath;
  QString runName;  // empty: the project names it "run N"
  RunConfig config;
  QString modelName;
  QString modelText;
  qint64 modelVersionId = 0;
  QString dataSetName;
  QString dataJson;  // empty when the model reads no data
  std::optional<qint64> dataSetId;
  /// A training's held-out rows (the JSON of the data set the setting test_data names); empty for none.
  QString heldoutJson;
  /// "Run more draws": the run that grows (its draws are appended) and one start per
  /// chain (warmup is skipped). A training continues from its latest checkpoint.
  qint64 continues = -1;
  std::vector<ChainResume> resume;
  /// Continuing a finished training: this many epochs more (0: an unfinished one goes
  /// on to its own number).
  int moreEpochs = 0;
  /// Reattaching to `continues`, a run whose job (config.job) went on on its worker
  /// while no studio followed it: its missing draws are filled in.
  bool reattach = false;
  /// Fitting replication sbcReplication (from 0) of an SBC run of seed sbcSeed again, as
  /// a run of its own: its data simulated as the SBC run simulated them (config holds
  /// the SBC run's settings, its method the fit's).
  int sbcReplication = -1;
  quint64 sbcSeed = 0;
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::RunRequest)
