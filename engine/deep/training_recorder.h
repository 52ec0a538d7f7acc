#pragma once
/// Keeps a deep model's training in a project (`variate fit --project`, the studio): the
/// ELBO of every step, a record per epoch and the checkpoints the fit hands over, each
/// checkpoint committed with the steps before it in one transaction. Steps are also committed about once a
/// second, so a live view (the studio) and a crash lose at most that much of the curve;
/// the weights are only as recent as the last checkpoint.

#include <chrono>
#include <memory>
#include <string>

#include "engine/deep/amortized_fit.h"
#include "engine/store/project.h"

namespace variate::deep {

class TrainingRecorder : public AmortizedFitObserver {
 public:
  /// A new run of `spec` in `project`.
  TrainingRecorder(std::shared_ptr<store::Project> project, const store::RunSpec& spec);
  /// Continues run `run` after its last checkpoint (rewinding the ELBO points and epochs
  /// a crash left after it).
  TrainingRecorder(std::shared_ptr<store::Project> project, store::Id run, int64_t checkpoint_step);

  store::Id run() const { return run_; }

  void on_steps(const std::vector<TrainingStep>& steps) override;
  void on_epoch(const EpochReport& report) override;
  void on_checkpoint(const TrainingCheckpoint& checkpoint) override;

  /// Commits what is pending and ends the run.
  void finish(store::RunStatus status, const std::string& error = "");

 private:
  void commit();

  std::shared_ptr<store::Project> project_;
  store::Id run_ = 0;
  store::RunUpdate pending_;
  std::chrono::steady_clock::time_point last_commit_ = std::chrono::steady_clock::now();
};

}  // namespace variate::deep
