#pragma once
/// Coalesces redraw requests: however often request() is called, refresh() is emitted at
/// most once per interval (33 ms: ~30 Hz), and no later than one interval after a request.

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace variate::ui {

class RefreshThrottle : public QObject {
  Q_OBJECT

 public:
  explicit RefreshThrottle(QObject* parent = nullptr, int intervalMs = 33);
  void request();
  int intervalMs() const { return interval_; }
  /// Spaces refreshes further apart (never closer than the initial interval): panels
  /// whose redraw is slow use it to keep their share of the CPU small.
  void setIntervalMs(int ms) { interval_ = std::max(ms, minimum_); }

 signals:
  void refresh();

 private:
  QTimer timer_;
  QElapsedTimer last_;
  int interval_;
  int minimum_;
};

}  // namespace variate::ui
