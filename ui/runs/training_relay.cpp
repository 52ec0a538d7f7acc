#include "ui/runs/training_relay.h"

#include <cmath>
#include <limits>

namespace variate::ui {
namespace {

constexpr auto kPreviewEvery = std::chrono::milliseconds(1500);

}  // namespace

void TrainingRelay::on_steps(const std::vector<deep::TrainingStep>& steps) {
  std::vector<ElboPoint> points;
  points.reserve(steps.size());
  for (const auto& step : steps) {
    points.push_back(
        {static_cast<int>(step.step), step.elbo, std::numeric_limits<double>::quiet_NaN()});
  }
  if (!steps.empty()) {
    step_ = steps.back().step;
    epoch_ = steps.back().epoch;
  }
  mailbox_.post(std::move(points), -1);
  if (std::chrono::steady_clock::now() - lastPreview_ >= kPreviewEvery) postPreview();
}

void TrainingRelay::on_epoch(const deep::EpochReport& report) {
  mailbox_.post(EpochPoint{report.epoch, report.step, report.train_elbo, report.heldout_elbo,
                           report.seconds, report.rows_per_second});
  step_ = report.step;
  epoch_ = report.epoch;
  postPreview();
}

void TrainingRelay::postPreview() {
  lastPreview_ = std::chrono::steady_clock::now();
  if (!preview_ || !previewError_.empty()) return;
  try {
    mailbox_.post(preview_(step_, epoch_));
  } catch (const std::exception& e) {  // the training goes on without images
    previewError_ = e.what();
  }
}

}  // namespace variate::ui
