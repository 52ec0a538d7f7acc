#pragma once
/// An ADVI run's ELBO recorded into its project as it comes, at least twice a second:
/// each iteration's (noisy, one-draw) estimate is a point; an evaluation of the
/// convergence rule replaces its iteration's point with the evaluation's ELBO and its
/// relative change. It also fans the ELBO out to the front end's observer and holds the
/// fit while the run is paused.

#include <chrono>
#include <map>
#include <memory>

#include "engine/services/run_observers.h"
#include "engine/store/project.h"

namespace variate::services {

/// Whether an evaluation is where the convergence rule passed: converged, and not an
/// evaluation that only made the fit reduce its step.
bool marks_convergence(const ElboEvaluation& evaluation);

class ElboRecorder : public AdviObserver {
 public:
  /// `project` may be null (a run not recorded); `evaluate_every`: the fit's eval_elbo
  /// (those iterations wait for their evaluation).
  ElboRecorder(store::Project* project, store::Id run, int evaluate_every, const RunObservers& observers)
      : project_(project), run_(run), evaluate_every_(evaluate_every), observers_(observers) {}

  void on_eta_trial(const EtaTrial& trial) override;
  void on_eta_chosen(double eta, bool adapted) override;
  void on_iterations(const ElboIterations& batch) override;
  void on_evaluation(const ElboEvaluation& evaluation) override;

  /// Writes what is pending; `final` also writes points still waiting for an evaluation.
  /// @throws store::ProjectError if the write fails.
  void commit(bool final = false);
  /// The iteration where the convergence rule first passed, or -1.
  int converged_at() const { return converged_at_; }

 private:
  void commit_if_due();

  store::Project* project_;
  store::Id run_;
  int evaluate_every_;
  const RunObservers& observers_;
  std::map<int, store::ElboPoint> pending_;  // by iteration
  // Raw points of evaluation iterations: the evaluation replaces them (one row per iteration).
  std::map<int, store::ElboPoint> held_;
  std::chrono::steady_clock::time_point last_commit_ = std::chrono::steady_clock::now();
  int converged_at_ = -1;
};

}  // namespace variate::services
