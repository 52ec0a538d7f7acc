#pragma once
/// The studio's observer of a deep model's training: hands each step's ELBO and each
/// epoch to the UI as they come, with a TrainingPreview about every 1.5 s and at each
/// epoch's end (computed here, on the training thread, between steps: the only place the
/// weights may be read while training), passes everything on to the project's recorder,
/// and holds the training while the run is paused.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in LibTorch.)

#include <chrono>
#include <functional>
#include <string>

#undef slots  // see training_previewer.h
#include "engine/deep/amortized_fit.h"

#include "ui/engine/live_mailbox.h"
#include "ui/engine/run_control.h"

namespace variate::ui {

class TrainingRelay : public deep::AmortizedFitObserver {
 public:
  /// `preview` computes the images (empty: none); `recorder` may be null.
  TrainingRelay(RunControl& control, LiveMailbox& mailbox, deep::AmortizedFitObserver* recorder,
                std::function<TrainingPreviewPtr(long long step, int epoch)> preview)
      : control_(control), mailbox_(mailbox), recorder_(recorder), preview_(std::move(preview)) {}

  void on_steps(const std::vector<deep::TrainingStep>& steps) override;
  void on_epoch(const deep::EpochReport& report) override;
  void on_checkpoint(const deep::TrainingCheckpoint& checkpoint) override;

  /// A preview of the weights as they are now (the training's end).
  void postPreview();
  /// Why previews stopped (a failure computing one), or empty.
  const std::string& previewError() const { return previewError_; }

 private:
  RunControl& control_;
  LiveMailbox& mailbox_;
  deep::AmortizedFitObserver* recorder_;
  std::function<TrainingPreviewPtr(long long, int)> preview_;
  std::chrono::steady_clock::time_point lastPreview_{};
  long long step_ = 0;
  int epoch_ = 1;
  std::string previewError_;
};

}  // namespace variate::ui
