#pragma once
// `variate-studio --monitor FILE`: once a second, a line of how the studio holds up while
// it works: seconds since the start, resident memory, the longest the UI thread went
// without running its events in that second, and the current run's iterations per chain
// (the least of its chains). The soak test (bench/soak.sh) reads it. Stalls count from
// the event loop's first pass: the time before it (building and showing the window) is
// start-up, when there is no UI to answer yet. A last line is written as the studio quits
// (its seconds may repeat the line before).
//
//   seconds rss_mib longest_stall_ms iterations
//   1 212.4 3.1 0

#include <cstdio>
#include <memory>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace variate::ui {
class MainWindow;
}

namespace variate::studio {

class StudioMonitor : public QObject {
 public:
  /// Writes to `file` (which it closes) until `window` goes.
  StudioMonitor(ui::MainWindow* window, std::FILE* file);
  /// A monitor writing to `path` (created or truncated), or nullptr if it cannot be opened.
  static StudioMonitor* open(ui::MainWindow* window, const QString& path);

  /// Resident memory of this process in MiB (/proc/self/statm).
  static double residentMiB();

 private:
  void tick();    // the 1 ms timer: how late it came is how long the event loop stalled
  void report();  // once a second

  ui::MainWindow* window_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  QTimer ticks_;
  QTimer seconds_;
  QElapsedTimer sinceStart_;
  QElapsedTimer sinceTick_;
  double longestMs_ = 0;
  bool looping_ = false;  // the event loop has run the 1 ms timer once
};

}  // namespace variate::studio
