#pragma once
/// The studio's observer of a deep model's training: hands each step's ELBO and each
/// epoch to the UI as they come, with a TrainingPreview about every 1.5 s and at each
/// epoch's end (computed here, on the training thread, between steps: the only place the
/// weights may be read while training). The service records the training and holds it
/// while the run is paused.
/// (Engine-side header: include it from ui/runs .cpp files only; it pulls in LibTorch.)

#include <chrono>
#include <functional>
#include <string>

#undef slots  // see training_previewer.h
#include "engine/deep/training_observer.h"

#include "ui/runs/live_mailbox.h"

namespace variate::ui {

class TrainingRelay : public deep::AmortizedFitObserver {
 public:
  /// `preview` computes the images (empty: none).
  TrainingRelay(LiveMailbox& mailbox, std::function<TrainingPreviewPtr(long long step, int epoch)> preview)
      : mailbox_(mailbox), preview_(std::move(preview)) {}

  void on_steps(const std::vector<deep::TrainingStep>& steps) override;
  void on_epoch(const deep::EpochReport& report) override;

  /// A preview of the weights as they are now (the training's start or end).
  void postPreview();
  /// Why previews stopped (a failure computing one), or empty.
  const std::string& previewError() const { return previewError_; }

 private:
  LiveMailbox& mailbox_;
  std::function<TrainingPreviewPtr(long long, int)> preview_;
  std::chrono::steady_clock::time_point lastPreview_{};
  long long step_ = 0;
  int epoch_ = 1;
  std::string previewError_;
};

}  // namespace variate::ui
