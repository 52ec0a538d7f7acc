#include "app/studio/studio_monitor.h"

#include <unistd.h>

#include <algorithm>

#include <QCoreApplication>

#include "engine/services/setting_table.h"
#include "ui/app/main_window.h"
#include "ui/document/project_document.h"

namespace variate::studio {

StudioMonitor::StudioMonitor(ui::MainWindow* window, std::FILE* file)
    : QObject(window), window_(window), file_(file, &std::fclose) {
  ticks_.setTimerType(Qt::PreciseTimer);
  ticks_.setInterval(1);
  connect(&ticks_, &QTimer::timeout, this, &StudioMonitor::tick);
  seconds_.setTimerType(Qt::PreciseTimer);
  seconds_.setInterval(1000);
  connect(&seconds_, &QTimer::timeout, this, &StudioMonitor::report);
  // A last line as the studio quits, so a run shorter than a second is still reported.
  connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &StudioMonitor::report);
  std::fprintf(file_.get(), "seconds rss_mib longest_stall_ms iterations\n");
  std::fflush(file_.get());
  sinceStart_.start();
  sinceTick_.start();
  ticks_.start();
  seconds_.start();
}

StudioMonitor* StudioMonitor::open(ui::MainWindow* window, const QString& path) {
  std::FILE* file = std::fopen(path.toLocal8Bit().constData(), "w");
  return file ? new StudioMonitor(window, file) : nullptr;
}

double StudioMonitor::residentMiB() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  long pages = 0, resident = 0;
  const int read = std::fscanf(statm, "%ld %ld", &pages, &resident);
  std::fclose(statm);
  return read == 2 ? resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20) : 0;
}

void StudioMonitor::tick() {
  if (!looping_) {
    looping_ = true;
    sinceTick_.restart();
    return;
  }
  // A 1 ms timer that fires late by this much could not run: the UI thread was busy.
  longestMs_ = std::max(longestMs_, sinceTick_.nsecsElapsed() / 1e6 - 1.0);
  sinceTick_.restart();
}

void StudioMonitor::report() {
  tick();  // the stall up to now, in case the timer is the one waiting
  int iterations = 0;
  if (ui::ProjectDocument* document = window_->document()) {
    if (const ui::RunPtr run = document->runs()->current(); run && !run->chains.empty()) {
      iterations = run->chains.front().iterations();
      for (const auto& chain : run->chains) iterations = std::min(iterations, chain.iterations());
      // With fewer threads than chains the later chains start when earlier ones end: until
      // then they have run no iteration (and the count never goes back).
      const bool waiting = run->config.method == services::Method::nuts &&
                           static_cast<int>(run->chains.size()) < run->config.settings.get(services::setting::chains);
      if (waiting) iterations = 0;
    }
  }
  std::fprintf(file_.get(), "%lld %.1f %.1f %d\n", static_cast<long long>(sinceStart_.elapsed() / 1000),
               residentMiB(), std::max(0.0, longestMs_), iterations);
  std::fflush(file_.get());
  longestMs_ = 0;
}

}  // namespace variate::studio
