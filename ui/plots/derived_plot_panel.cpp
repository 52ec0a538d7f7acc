#include "ui/plots/derived_plot_panel.h"

#include <QTimer>

#include <qcustomplot.h>

namespace variate::ui {
namespace {

constexpr int kRecomputeIntervalMs = 250;

}  // namespace

void DerivedPlotPanel::rebuild() {
  ++generation_;
  layOut();
  dirty_ = true;
}

void DerivedPlotPanel::invalidate() {
  ++generation_;
  dirty_ = true;
  requestRefresh();
}

void DerivedPlotPanel::redraw() {
  if (!dirty_ || !run() || computing_) return;  // arrived() asks again
  if (sinceRecompute_.isValid() && sinceRecompute_.elapsed() < kRecomputeIntervalMs) {
    QTimer::singleShot(kRecomputeIntervalMs - sinceRecompute_.elapsed(), this, [this] { requestRefresh(); });
    return;
  }
  sinceRecompute_.start();
  dirty_ = false;
  recompute();
  if (!computing_) emit recomputed();  // it drew directly
}

void DerivedPlotPanel::arrived(int generation, const std::function<void()>& show) {
  computing_ = false;
  if (generation != generation_) {
    dirty_ = true;  // computed for a run, parameters or option no longer shown
  } else if (show) {
    show();
    plot()->replot();
    emit recomputed();
  }
  if (dirty_) requestRefresh();
}

}  // namespace variate::ui
