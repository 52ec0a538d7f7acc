#include "ui/plots/analysis_pool.h"

#include <QCoreApplication>
#include <QThreadPool>

#include "ui/runs/background_priority.h"
#include "ui/threading/thread_handoff.h"

namespace variate::ui {

void startAnalysis(std::function<void()> task) {
  // Owned by the application, whose end waits for the tasks under way.
  static QThreadPool* const pool = new QThreadPool(QCoreApplication::instance());
  handOff();
  pool->start([task = std::move(task)] {
    takeOver();
    thread_local bool lowered = false;  // a pool thread keeps its priority between tasks
    if (!lowered) {
      lowerCurrentThreadPriority();
      lowered = true;
    }
    task();
  });
}

}  // namespace variate::ui
