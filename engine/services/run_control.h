#pragma once
/// Stop, pause and detach of a run, shared by the thread that asks (a front end's: the
/// studio's UI thread, a worker's RPC threads, a signal handler) and the run's threads,
/// which honour them: stop is the engine's atomic flag; pause holds the chains where the
/// service lets them wait (between batches of draws, L-BFGS iterations, paths).

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace variate::services {

class RunControl {
 public:
  void set_paused(bool paused);
  bool paused() const;
  /// Ends the run at its next iteration, keeping its draws; also releases a pause.
  void request_stop();
  bool stop_requested() const { return stop_.load(); }
  const std::atomic<bool>* stop_flag() const { return &stop_; }
  /// Ends following a run on a worker while its job goes on there; a local run ignores
  /// it. Asked before a stop, it wins over the stop.
  void request_detach() { detach_.store(true); }
  bool detach_requested() const { return detach_.load(); }
  /// Blocks the calling thread while paused (returns at once when stopping).
  void wait_while_paused() const;
  /// Clears them all for the next run.
  void reset();

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> detach_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable resumed_;
  bool paused_ = false;
};

}  // namespace variate::services
