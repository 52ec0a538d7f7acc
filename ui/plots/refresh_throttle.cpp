#include "ui/plots/refresh_throttle.h"

namespace variate::ui {

RefreshThrottle::RefreshThrottle(QObject* parent, int intervalMs)
    : QObject(parent), interval_(intervalMs), minimum_(intervalMs) {
  timer_.setSingleShot(true);
  connect(&timer_, &QTimer::timeout, this, [this] {
    last_.start();
    emit refresh();
  });
}

void RefreshThrottle::request() {
  if (timer_.isActive()) return;
  const qint64 since = last_.isValid() ? last_.elapsed() : interval_;
  timer_.start(static_cast<int>(std::max<qint64>(0, interval_ - since)));
}

}  // namespace variate::ui
