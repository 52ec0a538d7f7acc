#pragma once
/// Pause and stop of a running sampler, shared by the UI thread (which sets them) and the
/// chain threads (which honour them). Stop is the engine's atomic flag; pause blocks the
/// chains inside the observer, the one place where blocking there is wanted.

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace variate::ui {

class RunControl {
 public:
  void setPaused(bool paused);
  bool paused() const;
  /// Ends the run at the chains' next iteration; also releases paused chains.
  void requestStop();
  bool stopRequested() const { return stop_.load(); }
  const std::atomic<bool>* stopFlag() const { return &stop_; }
  /// Ends following a remote run while its job goes on on the worker (the studio
  /// closes); a local run ignores it. Asked before a stop, it wins over the stop.
  void requestDetach() { detach_.store(true); }
  bool detachRequested() const { return detach_.load(); }
  const std::atomic<bool>* detachFlag() const { return &detach_; }
  /// Blocks the calling chain thread while paused (returns at once when stopping).
  void waitWhilePaused();
  /// Clears them all for the next run.
  void reset();

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> detach_{false};
  mutable std::mutex mutex_;
  std::condition_variable resumed_;
  bool paused_ = false;
};

}  // namespace variate::ui
