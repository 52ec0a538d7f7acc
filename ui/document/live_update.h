#pragma once
/// What the engine thread hands the UI in one go: draw blocks, adaptation results, chain
/// ends, ELBO points, a training's epochs and its latest preview, SBC replications that
/// piled up since the UI last took them. Immutable once posted.

#include <optional>
#include <vector>

#include <QMetaType>

#include "ui/document/approximation_check.h"
#include "ui/document/draw_block.h"
#include "ui/document/elbo_trace.h"
#include "ui/document/sbc_replications.h"
#include "ui/document/training_preview.h"

namespace variate::ui {

struct ChainAdaptation {
  int chain = 0;
  double stepSize = 0;
  std::vector<double> inverseMetric;
};

struct ChainEnd {
  int chain = 0;
  std::vector<double> lastPosition;  // unconstrained
  double stepSize = 0;
  std::vector<double> inverseMetric;
  bool stoppedEarly = false;
  double secondsWarmup = 0;
  double secondsSampling = 0;
};

struct LiveUpdate {
  DrawBlocks blocks;
  std::vector<ChainAdaptation> adaptations;
  std::vector<ChainEnd> chainEnds;
  std::vector<ElboPoint> elbo;
  int elboConvergedAt = -1;
  std::vector<EpochPoint> epochs;
  std::vector<PathPoint> pathPoints;
  /// The newest of a training's previews since the last update (older ones are dropped).
  TrainingPreviewPtr preview;
  /// An approximation's run ended: what it recorded about its draws.
  std::optional<ApproximationCheck> approximation;
  /// An SBC run's replications that ended.
  std::vector<store::SbcReplicationRecord> sbc;

  bool empty() const {
    return blocks.empty() && adaptations.empty() && chainEnds.empty() && elbo.empty() && elboConvergedAt < 0 &&
           epochs.empty() && pathPoints.empty() && !preview && !approximation && sbc.empty();
  }
};

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::LiveUpdate)
