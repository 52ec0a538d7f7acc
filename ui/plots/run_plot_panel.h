#pragma once
/// What the trace and density panels share: a parameter picker beside a plot, the run
/// the document has current (and the one compared with it), a refresh throttle (≤ 30 Hz
/// redraws however fast batches arrive), and export of the plot.

#include <QPointer>
#include <QWidget>

#include "ui/document/run_list.h"
#include "ui/plots/refresh_throttle.h"

class QCustomPlot;
class QCPAxisRect;
class QHBoxLayout;

namespace variate::ui {

class ParameterPicker;
class ProjectDocument;

class RunPlotPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunPlotPanel(QWidget* parent = nullptr);

  void setDocument(ProjectDocument* document);
  QCustomPlot* plot() const { return plot_; }
  ParameterPicker* picker() const { return picker_; }
  RunPtr run() const { return run_; }
  /// Parameters on the plot, in picker order (at most maxPlotted()).
  QStringList plotted() const { return plotted_; }
  static int maxPlotted() { return 8; }
  /// Asks for a throttled redraw.
  void requestRefresh() { throttle_.request(); }
  /// Redraws if a refresh was skipped while the panel was out of sight.
  void catchUp() {
    if (stale_) requestRefresh();
  }
  /// Saves the plot (PNG, SVG or PDF by extension).
  bool exportTo(const QString& path, QString* error);

 signals:
  /// After each redraw (tests watch the plot grow through it).
  void refreshed();

 protected:
  /// The run or the parameters changed: start over from the run's draws.
  virtual void rebuild() = 0;
  /// New live blocks of the current run.
  virtual void append(const DrawBlocks& blocks) = 0;
  /// Draw now (called at most ~30 times a second).
  virtual void redraw() = 0;
  /// The comparison run changed (panels that overlay it override this).
  virtual void comparisonChanged() {}

  RunPtr comparison() const;
  /// Extra controls above the plot.
  QHBoxLayout* toolRow() const { return tools_; }
  /// One stacked axis rect per plotted parameter, left axes aligned; returns them.
  QList<QCPAxisRect*> resetAxisRects(int count);
  void showEvent(QShowEvent* event) override;

 private:
  void setRun(qint64 id);
  void onPicked(const QStringList& names);
  void refreshNow();

  QPointer<ProjectDocument> document_;
  ParameterPicker* picker_;
  QCustomPlot* plot_;
  QHBoxLayout* tools_;
  RefreshThrottle throttle_;
  RunPtr run_;
  QStringList plotted_;
  bool stale_ = false;  // a refresh came while hidden
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
