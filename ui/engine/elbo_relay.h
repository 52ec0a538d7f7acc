#pragma once
/// The ADVI observer of the studio: hands ELBO estimates to the UI as they come and
/// records them in the project at least twice a second, holding the fit while the run is
/// paused. Each iteration's (noisy, one-draw) estimate is a point; an evaluation of the
/// convergence rule replaces its iteration's point with the evaluation's ELBO and its
/// relative change.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)

#include <chrono>
#include <map>

#include "engine/vi/advi_observer.h"
#include "engine/store/project.h"

#include "ui/engine/live_mailbox.h"
#include "ui/engine/run_control.h"

namespace variate::ui {

class ElboRelay : public AdviObserver {
 public:
  /// `evaluateEvery`: the fit's eval_elbo (those iterations wait for their evaluation).
  ElboRelay(store::Project& project, store::Id run, int evaluateEvery, RunControl& control, LiveMailbox& mailbox)
      : project_(project), run_(run), evaluateEvery_(evaluateEvery), control_(control), mailbox_(mailbox) {}

  void on_iterations(const ElboIterations& batch) override;
  void on_evaluation(const ElboEvaluation& evaluation) override;

  /// Writes what is pending to the project (also the heartbeat); `final` also writes
  /// points still waiting for an evaluation.
  /// @throws store::ProjectError if the write fails.
  void commit(bool final = false);
  /// The iteration where the convergence rule first passed, or -1.
  int convergedAt() const { return convergedAt_; }

 private:
  void commitIfDue();

  store::Project& project_;
  store::Id run_;
  int evaluateEvery_;
  RunControl& control_;
  LiveMailbox& mailbox_;
  std::map<int, store::ElboPoint> pending_;  // by iteration
  // Raw points of evaluation iterations: the evaluation replaces them (one row per iteration).
  std::map<int, store::ElboPoint> held_;
  std::chrono::steady_clock::time_point lastCommit_ = std::chrono::steady_clock::now();
  int convergedAt_ = -1;
};

}  // namespace variate::ui
