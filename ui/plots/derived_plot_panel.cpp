#include "ui/plots/derived_plot_panel.h"

#include <QTimer>

namespace variate::ui {
namespace {

constexpr int kRecomputeIntervalMs = 250;

}  // namespace

void DerivedPlotPanel::rebuild() {
  layOut();
  dirty_ = true;
}

void DerivedPlotPanel::invalidate() {
  dirty_ = true;
  requestRefresh();
}

void DerivedPlotPanel::redraw() {
  if (!dirty_ || !run()) return;
  if (sinceRecompute_.isValid() && sinceRecompute_.elapsed() < kRecomputeIntervalMs) {
    QTimer::singleShot(kRecomputeIntervalMs - sinceRecompute_.elapsed(), this, [this] { requestRefresh(); });
    return;
  }
  sinceRecompute_.start();
  dirty_ = false;
  recompute();
  emit recomputed();
}

}  // namespace variate::ui
