#include "engine/services/elbo_recorder.h"

#include <cmath>
#include <limits>

namespace variate::services {
namespace {

constexpr double kCommitSeconds = 0.5;

}  // namespace

bool marks_convergence(const ElboEvaluation& evaluation) { return evaluation.converged() && !evaluation.step_reduced; }

void ElboRecorder::on_eta_trial(const EtaTrial& trial) {
  if (observers_.elbo) observers_.elbo->on_eta_trial(trial);
}

void ElboRecorder::on_eta_chosen(double eta, bool adapted) {
  if (observers_.elbo) observers_.elbo->on_eta_chosen(eta, adapted);
}

void ElboRecorder::on_iterations(const ElboIterations& batch) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < batch.elbo.size(); ++i) {
    const int iteration = batch.first_iteration + static_cast<int>(i);
    (iteration % evaluate_every_ == 0 ? held_ : pending_)[iteration] = store::ElboPoint{iteration, batch.elbo[i], nan};
  }
  if (observers_.elbo) observers_.elbo->on_iterations(batch);
  commit_if_due();
  observers_.wait_while_paused();  // pausing holds the fit here, between iterations
}

void ElboRecorder::on_evaluation(const ElboEvaluation& evaluation) {
  // An infinite change (a non-finite ELBO) is kept as NaN: undefined, not a number to plot.
  const double change = std::isfinite(evaluation.relative_change) ? evaluation.relative_change
                                                                  : std::numeric_limits<double>::quiet_NaN();
  held_.erase(evaluation.iteration);
  pending_[evaluation.iteration] = store::ElboPoint{evaluation.iteration, evaluation.elbo, change};
  if (converged_at_ < 0 && marks_convergence(evaluation)) converged_at_ = evaluation.iteration;
  if (observers_.elbo) observers_.elbo->on_evaluation(evaluation);
  commit_if_due();
}

void ElboRecorder::commit_if_due() {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_commit_).count() >= kCommitSeconds) commit();
}

void ElboRecorder::commit(bool final) {
  if (final) {
    pending_.insert(held_.begin(), held_.end());
    held_.clear();
  }
  if (project_) {
    store::RunUpdate update;
    for (const auto& [iteration, point] : pending_) update.elbo.push_back(point);
    project_->write(run_, update);
  }
  pending_.clear();
  last_commit_ = std::chrono::steady_clock::now();
}

}  // namespace variate::services
