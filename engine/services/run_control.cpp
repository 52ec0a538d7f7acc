#include "engine/services/run_control.h"

namespace variate::services {

void RunControl::set_paused(bool paused) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = paused;
  }
  resumed_.notify_all();
}

bool RunControl::paused() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return paused_;
}

void RunControl::request_stop() {
  stop_.store(true);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = false;
  }
  resumed_.notify_all();
}

void RunControl::wait_while_paused() const {
  std::unique_lock<std::mutex> lock(mutex_);
  resumed_.wait(lock, [this] { return !paused_ || stop_.load(); });
}

void RunControl::reset() {
  stop_.store(false);
  detach_.store(false);
  std::lock_guard<std::mutex> lock(mutex_);
  paused_ = false;
}

}  // namespace variate::services
