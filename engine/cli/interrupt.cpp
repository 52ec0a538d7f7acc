#include "engine/cli/interrupt.h"

#include <csignal>
#include <chrono>

#include <unistd.h>

namespace variate::cli {
namespace {

volatile std::sig_atomic_t interrupts = 0;
struct sigaction previous {};

void on_interrupt(int) {
  if (interrupts++ > 0) _exit(130);  // the second Ctrl-C: at once
}

}  // namespace

InterruptStops::InterruptStops(services::RunControl& control, bool detach) : control_(control) {
  interrupts = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous);
  watcher_ = std::thread([this, detach] {
    while (!done_) {
      if (interrupts > 0) {
        if (detach) control_.request_detach();  // asked before the stop: it wins
        control_.request_stop();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
}

InterruptStops::~InterruptStops() {
  done_ = true;
  watcher_.join();
  sigaction(SIGINT, &previous, nullptr);
}

bool InterruptStops::interrupted() const { return interrupts > 0; }

}  // namespace variate::cli
