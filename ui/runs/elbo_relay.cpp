#include "ui/runs/elbo_relay.h"

#include <cmath>
#include <limits>

#include "engine/services/elbo_recorder.h"

namespace variate::ui {

void ElboRelay::on_iterations(const ElboIterations& batch) {
  std::vector<ElboPoint> points;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < batch.elbo.size(); ++i) points.push_back({batch.first_iteration + static_cast<int>(i), batch.elbo[i], nan});
  mailbox_.post(std::move(points), -1);
}

void ElboRelay::on_evaluation(const ElboEvaluation& evaluation) {
  // An infinite change (a non-finite ELBO) is kept as NaN: undefined, not a number to plot.
  const double change = std::isfinite(evaluation.relative_change) ? evaluation.relative_change
                                                                  : std::numeric_limits<double>::quiet_NaN();
  if (convergedAt_ < 0 && services::marks_convergence(evaluation)) convergedAt_ = evaluation.iteration;
  mailbox_.post(std::vector<ElboPoint>{{evaluation.iteration, evaluation.elbo, change}}, convergedAt_);
}

}  // namespace variate::ui
