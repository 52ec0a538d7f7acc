#pragma once
/// Collects live updates from the chain threads and lets the UI take them all at once.
/// Only the first post after a take asks for a notification, so the UI gets one queued
/// event per time it drains, however fast the sampler produces: throttling by
/// construction, never one signal per draw.

#include <functional>
#include <mutex>

#include "ui/document/live_update.h"

namespace variate::ui {

class LiveMailbox {
 public:
  /// `notify` is called (on the posting thread) when an update arrives in an empty box.
  explicit LiveMailbox(std::function<void()> notify) : notify_(std::move(notify)) {}

  void post(DrawBlockPtr block);
  void post(ChainAdaptation adaptation);
  void post(ChainEnd end);
  void post(std::vector<ElboPoint> points, int convergedAt);
  void post(EpochPoint epoch);
  void post(PathPoint point);
  /// Replaces a preview the UI has not taken yet: only the newest is worth drawing.
  void post(TrainingPreviewPtr preview);
  void post(ApproximationCheck check);
  void post(store::SbcReplicationRecord replication);
  /// Everything posted since the last take.
  LiveUpdate take();

 private:
  template <class F>
  void postWith(F&& add);

  std::mutex mutex_;
  LiveUpdate pending_;
  bool notified_ = false;
  std::function<void()> notify_;
};

}  // namespace variate::ui
