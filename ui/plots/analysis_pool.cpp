#include "ui/plots/analysis_pool.h"

#include <QCoreApplication>
#include <QThreadPool>

#include "ui/engine/background_priority.h"

namespace variate::ui {

void startAnalysis(std::function<void()> task) {
  // Owned by the application, whose end waits for the tasks under way.
  static QThreadPool* const pool = new QThreadPool(QCoreApplication::instance());
  pool->start([task = std::move(task)] {
    thread_local bool lowered = false;  // a pool thread keeps its priority between tasks
    if (!lowered) {
      lowerCurrentThreadPriority();
      lowered = true;
    }
    task();
  });
}

}  // namespace variate::ui
