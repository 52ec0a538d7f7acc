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
  /// Blocks the calling chain thread while paused (returns at once when stopping).
  void waitWhilePaused();
  /// Clears both for the next run.
  void reset();

 private:
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::condition_variable resumed_;
  bool paused_ = false;
};

}  // namespace variate::ui
