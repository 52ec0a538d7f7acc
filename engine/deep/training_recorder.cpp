#include "engine/deep/training_recorder.h"

#include <cmath>

namespace variate::deep {

TrainingRecorder::TrainingRecorder(std::shared_ptr<store::Project> project, const store::RunSpec& spec)
    : project_(std::move(project)), run_(project_->create_run(spec)) {}

TrainingRecorder::TrainingRecorder(std::shared_ptr<store::Project> project, store::Id run, int64_t checkpoint_step)
    : project_(std::move(project)), run_(run) {
  project_->rewind_training(run_, checkpoint_step);
  project_->resume_run(run_);
}

void TrainingRecorder::on_steps(const std::vector<TrainingStep>& steps) {
  for (const auto& step : steps) {
    pending_.elbo.push_back({static_cast<int>(step.step), step.elbo, std::nan("")});
  }
  if (std::chrono::steady_clock::now() - last_commit_ > std::chrono::seconds(1)) commit();
}

void TrainingRecorder::on_epoch(const EpochReport& report) {
  pending_.epochs.push_back({report.epoch, report.step, report.train_elbo, report.heldout_elbo, report.seconds,
                             report.rows_per_second});
}

void TrainingRecorder::on_checkpoint(const TrainingCheckpoint& checkpoint) {
  store::CheckpointRecord record;
  record.step = checkpoint.step;
  record.epoch = checkpoint.epoch;
  record.epoch_step = checkpoint.epoch_step;
  record.weights = checkpoint.weights;
  record.optimizer = checkpoint.optimizer;
  pending_.checkpoint = std::move(record);
  commit();
}

void TrainingRecorder::finish(store::RunStatus status, const std::string& error) {
  commit();
  project_->finish_run(run_, status, error);
}

void TrainingRecorder::commit() {
  project_->write(run_, pending_);
  pending_ = {};
  last_commit_ = std::chrono::steady_clock::now();
}

}  // namespace variate::deep
