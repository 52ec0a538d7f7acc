#include "ui/engine/elbo_relay.h"

#include <cmath>
#include <limits>

namespace variate::ui {
namespace {

constexpr double kCommitSeconds = 0.5;

}  // namespace

void ElboRelay::on_iterations(const ElboIterations& batch) {
  std::vector<ElboPoint> points;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < batch.elbo.size(); ++i) {
    const int iteration = batch.first_iteration + static_cast<int>(i);
    points.push_back({iteration, batch.elbo[i], nan});
    (iteration % evaluateEvery_ == 0 ? held_ : pending_)[iteration] = store::ElboPoint{iteration, batch.elbo[i], nan};
  }
  mailbox_.post(std::move(points), -1);
  commitIfDue();
  control_.waitWhilePaused();  // pausing holds the fit here, between iterations
}

void ElboRelay::on_evaluation(const ElboEvaluation& evaluation) {
  // An infinite change (a non-finite ELBO) is kept as NaN: undefined, not a number to plot.
  const double change = std::isfinite(evaluation.relative_change) ? evaluation.relative_change
                                                                  : std::numeric_limits<double>::quiet_NaN();
  held_.erase(evaluation.iteration);
  pending_[evaluation.iteration] = store::ElboPoint{evaluation.iteration, evaluation.elbo, change};
  // A converged evaluation that only made the fit reduce its step is not the end.
  if (evaluation.converged() && !evaluation.step_reduced && convergedAt_ < 0) convergedAt_ = evaluation.iteration;
  mailbox_.post(std::vector<ElboPoint>{{evaluation.iteration, evaluation.elbo, change}}, convergedAt_);
  commitIfDue();
}

void ElboRelay::commitIfDue() {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - lastCommit_).count() >= kCommitSeconds) commit();
}

void ElboRelay::commit(bool final) {
  if (final) {
    pending_.insert(held_.begin(), held_.end());
    held_.clear();
  }
  store::RunUpdate update;
  for (const auto& [iteration, point] : pending_) update.elbo.push_back(point);
  project_.write(run_, update);
  pending_.clear();
  lastCommit_ = std::chrono::steady_clock::now();
}

}  // namespace variate::ui
