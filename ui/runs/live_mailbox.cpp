#include "ui/runs/live_mailbox.h"

namespace variate::ui {

template <class F>
void LiveMailbox::postWith(F&& add) {
  bool notify = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    add(pending_);
    notify = !notified_;
    notified_ = true;
  }
  if (notify && notify_) notify_();
}

void LiveMailbox::post(DrawBlockPtr block) {
  postWith([&](LiveUpdate& u) { u.blocks.push_back(std::move(block)); });
}

void LiveMailbox::post(ChainAdaptation adaptation) {
  postWith([&](LiveUpdate& u) { u.adaptations.push_back(std::move(adaptation)); });
}

void LiveMailbox::post(ChainEnd end) {
  postWith([&](LiveUpdate& u) { u.chainEnds.push_back(std::move(end)); });
}

void LiveMailbox::post(std::vector<ElboPoint> points, int convergedAt) {
  postWith([&](LiveUpdate& u) {
    u.elbo.insert(u.elbo.end(), points.begin(), points.end());
    if (convergedAt >= 0) u.elboConvergedAt = convergedAt;
  });
}

void LiveMailbox::post(EpochPoint epoch) {
  postWith([&](LiveUpdate& u) { u.epochs.push_back(epoch); });
}

void LiveMailbox::post(PathPoint point) {
  postWith([&](LiveUpdate& u) { u.pathPoints.push_back(point); });
}

void LiveMailbox::post(TrainingPreviewPtr preview) {
  postWith([&](LiveUpdate& u) { u.preview = std::move(preview); });
}

void LiveMailbox::post(ApproximationCheck check) {
  postWith([&](LiveUpdate& u) { u.approximation = std::move(check); });
}

void LiveMailbox::post(store::SbcReplicationRecord replication) {
  postWith([&](LiveUpdate& u) { u.sbc.push_back(std::move(replication)); });
}

LiveUpdate LiveMailbox::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  LiveUpdate taken = std::move(pending_);
  pending_ = LiveUpdate();
  notified_ = false;
  return taken;
}

}  // namespace variate::ui
