#pragma once
/// The ELBO of a variational run, one estimate per reported iteration (per training step
/// of a deep model, with a record per epoch; per L-BFGS iteration of each of Pathfinder's
/// paths), or an optimization's log density by iteration, as the ELBO panel plots it.

#include <algorithm>
#include <optional>
#include <vector>

namespace variate::ui {

struct ElboPoint {
  int iteration = 0;
  double elbo = 0;
  double relativeChange = 0;  // |ΔELBO / ELBO| over the engine's convergence window
};

/// A point of an L-BFGS path: Pathfinder's ELBO estimate of path `path` at iteration
/// `iteration` (1, 2, ...; NaN where none could be scored), or an optimization's log
/// density at `iteration` (path 0; iteration 0 is the start).
struct PathPoint {
  int path = 0;
  int iteration = 0;
  double value = 0;
};

/// One completed epoch of a training.
struct EpochPoint {
  int epoch = 0;
  long long step = 0;  // steps done at its end
  double trainElbo = 0;  // mean per row over its steps
  std::optional<double> heldoutElbo;
  double seconds = 0;
  double rowsPerSecond = 0;
};

struct ElboTrace {
  std::vector<ElboPoint> points;
  std::vector<EpochPoint> epochs;
  std::vector<PathPoint> pathPoints;  // Pathfinder's and Optimize's L-BFGS paths
  int convergedAt = -1;  // iteration where the convergence test passed, or -1
  bool empty() const { return points.empty() && epochs.empty() && pathPoints.empty(); }
  /// A training continued from its checkpoint after `step`: what came later is redone.
  void rewindTo(long long step) {
    points.erase(std::remove_if(points.begin(), points.end(), [&](const ElboPoint& p) { return p.iteration > step; }),
                 points.end());
    epochs.erase(std::remove_if(epochs.begin(), epochs.end(), [&](const EpochPoint& e) { return e.step > step; }),
                 epochs.end());
  }
};

}  // namespace variate::ui
