#pragma once
/// The studio's observer of an ADVI fit: hands each iteration's ELBO estimate and each
/// evaluation of the convergence rule to the UI as they come (the service records them in
/// the project and holds the fit while the run is paused).
/// (Engine-side header: include it from ui/runs .cpp files only.)

#include "engine/vi/advi_observer.h"

#include "ui/runs/live_mailbox.h"

namespace variate::ui {

class ElboRelay : public AdviObserver {
 public:
  explicit ElboRelay(LiveMailbox& mailbox) : mailbox_(mailbox) {}

  void on_iterations(const ElboIterations& batch) override;
  void on_evaluation(const ElboEvaluation& evaluation) override;

 private:
  LiveMailbox& mailbox_;
  int convergedAt_ = -1;
};

}  // namespace variate::ui
