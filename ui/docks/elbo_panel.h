#pragma once
/// The ELBO of a variational run, live: every iteration's noisy estimate (light), a
/// moving average over them, the relative change of each evaluation on a log axis with
/// the tolerance it is checked against (the run's own tol_rel_obj), and the iteration
/// where the fit converged. A deep model's training shows its steps' ELBO, their moving
/// average, and each epoch's training and held-out ELBO. Under the caption, the Pareto
/// k-hat of an approximation's draws (ADVI, Laplace, Pathfinder; stored with the run), and
/// above 0.7 a warning that the approximation misses much of the posterior's mass.
/// Pathfinder shows each path's ELBO along its L-BFGS iterations, its best marked;
/// Optimize the log density along L-BFGS's iterations and the mode's. A run with nothing
/// to plot (NUTS) shows a caption only.

#include <QPointer>
#include <QWidget>

#include "ui/plots/refresh_throttle.h"

class QCustomPlot;
class QLabel;

namespace variate::ui {

class ProjectDocument;
class RunData;
struct ElboTrace;

/// Moving average of `values` over a centred window of `window` points (shrinking at the
/// ends), skipping non-finite values.
QVector<double> movingAverage(const QVector<double>& values, int window);

class ElboPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ElboPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  QCustomPlot* plot() const { return plot_; }
  /// What the panel says of the run shown.
  QLabel* caption() const { return caption_; }
  /// Points on the raw ELBO curve (a training's steps), and the convergence iteration
  /// marked (-1 if none).
  int plottedPoints() const;
  /// A training's held-out ELBO points (one per epoch).
  int plottedHeldout() const;
  int markedConvergence() const { return markedConvergence_; }
  /// "Pareto k-hat 0.42" (hidden for runs without one).
  QLabel* paretoKLabel() const { return paretoK_; }
  /// The warning shown when k-hat is above 0.7.
  QLabel* paretoKWarning() const { return warning_; }
  bool exportTo(const QString& path, QString* error);

 signals:
  void refreshed();

 private:
  void redraw();
  void redrawTraining(const RunData& run);
  void redrawAdvi(const RunData& run);
  void redrawPaths(const RunData& run);
  void scaleAdviAxes(const QVector<double>& xs, const QVector<double>& smooth, const QVector<double>& evalX,
                     const QVector<double>& evalElbo, const QVector<double>& evalChange, double tol);
  void markConvergence(int iteration);
  void showParetoK(const RunData* run);

  QPointer<ProjectDocument> document_;
  QCustomPlot* plot_;
  QLabel* caption_;
  QLabel* paretoK_;
  QLabel* warning_;
  RefreshThrottle throttle_;
  int markedConvergence_ = -1;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
