#pragma once
/// Simulation-based calibration of the current run, filling as its replications end
/// (Talts et al. 2018; Säilynoja, Bürkner & Vehtari 2022): per quantity, the histogram of
/// its ranks with each bin's binomial 95% interval (a calibrated fit's bins stay inside
/// all but one in twenty), and the ECDF difference (the ranks' ECDF less the uniform's)
/// with its simultaneous band, whose verdict the table beside gives with the chi-square of
/// the binned ranks; and the replications whose fits had problems (double-click one to
/// open its fit as a run of its own). The tests are recomputed off the UI thread.

#include <memory>
#include <vector>

#include <QPointer>
#include <QWidget>

#include "engine/diagnostics/rank_uniformity.h"
#include "ui/document/run_list.h"

class QCPMarginGroup;
class QCustomPlot;
class QLabel;
class QListWidget;
class QTableWidget;

namespace variate::ui {

class ProjectDocument;

/// One quantity's ranks tested and binned, as the panel plots them.
struct SbcQuantityView {
  QString name;
  diagnostics::EcdfTest ecdf;
  diagnostics::ChiSquareTest chiSquare;
  std::vector<int64_t> binStarts;           ///< the first rank of each bin, then max_rank + 1
  std::vector<int64_t> binLower, binUpper;  ///< each bin's binomial 95% interval
};

/// The tests of every quantity over the replications that ran (ranks.size() of them).
struct SbcView {
  int ranked = 0;
  int64_t maxRank = 0;
  double prob = 0.99;
  std::vector<SbcQuantityView> quantities;
};

/// @throws ArgumentError as diagnostics::ecdf_uniformity (no ranks).
SbcView sbcView(const QStringList& names, const std::vector<std::vector<int64_t>>& ranks, int64_t maxRank, double prob);

class SbcPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SbcPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);

  QLabel* header() const { return header_; }
  QTableWidget* verdictTable() const { return verdicts_; }
  QListWidget* problemList() const { return problems_; }
  QCustomPlot* plot() const { return plot_; }
  /// The view on the plot (empty before the first replication).
  const SbcView& view() const { return view_; }
  /// The quantities plotted: those selected in the table, else the first few, those
  /// whose ranks are not uniform first.
  QStringList plotted() const;
  static int maxPlotted() { return 3; }
  /// Saves the plot (PNG, SVG or PDF by extension).
  bool exportTo(const QString& path, QString* error);

 signals:
  /// A replication of SBC run `runId` was chosen in the problems list.
  void replicationFitRequested(qint64 runId, int replication);
  /// After each redraw from a recomputed view (tests wait for it).
  void refreshed();

 private:
  void setRun(qint64 id);
  void runChanged(qint64 id);
  void recompute();
  void show(std::shared_ptr<const SbcView> view, int generation);
  void showHeader();
  void showTable();
  void showProblems();
  void drawPlot();

  QPointer<ProjectDocument> document_;
  RunPtr run_;
  QLabel* header_;
  QCustomPlot* plot_;
  QTableWidget* verdicts_;
  QListWidget* problems_;
  QCPMarginGroup* margins_ = nullptr;  // the plots' left edges aligned
  SbcView view_;
  bool computing_ = false;
  bool dirty_ = false;
  int generation_ = 0;  // counts run changes: a result for an older run is dropped
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
