#pragma once
/// Ctrl-C while a command runs: a local run stops at its next iteration, keeping its
/// draws (as CmdStan's does), and a run on a worker detaches (its job goes on there); the
/// command then reports what it has. A second Ctrl-C ends the program at once.

#include <atomic>
#include <thread>

#include "engine/services/run_control.h"

namespace variate::cli {

class InterruptStops {
 public:
  /// `detach`: a run on a worker.
  InterruptStops(services::RunControl& control, bool detach);
  ~InterruptStops();
  InterruptStops(const InterruptStops&) = delete;
  InterruptStops& operator=(const InterruptStops&) = delete;

  /// Whether Ctrl-C was pressed during the run.
  bool interrupted() const;

 private:
  services::RunControl& control_;
  std::atomic<bool> done_{false};
  std::thread watcher_;  // turns the signal into the control's requests, off the handler
};

}  // namespace variate::cli
