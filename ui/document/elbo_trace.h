#pragma once
/// The ELBO of a variational run, one estimate per reported iteration, as the ELBO panel
/// plots it.

#include <vector>

namespace variate::ui {

struct ElboPoint {
  int iteration = 0;
  double elbo = 0;
  double relativeChange = 0;  // |ΔELBO / ELBO| over the engine's convergence window
};

struct ElboTrace {
  std::vector<ElboPoint> points;
  int convergedAt = -1;  // iteration where the convergence test passed, or -1
  bool empty() const { return points.empty(); }
};

}  // namespace variate::ui
