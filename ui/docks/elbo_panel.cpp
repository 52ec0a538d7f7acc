#include "ui/docks/elbo_panel.h"

#include "engine/services/setting_table.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "ui/document/project_document.h"
#include "ui/plots/chain_palette.h"
#include "ui/plots/decimated_series.h"
#include "ui/plots/export_button.h"
#include "ui/plots/plot_export.h"

namespace variate::ui {

QVector<double> movingAverage(const QVector<double>& values, int window) {
  const int n = values.size(), half = std::max(window, 1) / 2;
  QVector<double> prefix(n + 1, 0.0);
  QVector<int> counts(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    const bool ok = std::isfinite(values[i]);
    prefix[i + 1] = prefix[i] + (ok ? values[i] : 0);
    counts[i + 1] = counts[i] + ok;
  }
  QVector<double> smoothed(n);
  for (int i = 0; i < n; ++i) {
    const int lo = std::max(0, i - half), hi = std::min(n, i + half + 1);
    const int k = counts[hi] - counts[lo];
    smoothed[i] = k > 0 ? (prefix[hi] - prefix[lo]) / k : std::nan("");
  }
  return smoothed;
}

namespace {

// What to try when k-hat says the method's approximation cannot be trusted.
QString remedy(services::Method method) {
  switch (method) {
    case services::Method::optimize:
      return QObject::tr("The posterior is far from Gaussian on the unconstrained scale: try Pathfinder, ADVI "
                         "full-rank, or NUTS.");
    case services::Method::pathfinder:
      return QObject::tr("Use its draws as starting points rather than as the posterior: try ADVI full-rank, or "
                         "NUTS.");
    default: return QObject::tr("Try the full-rank family, or sample with NUTS.");
  }
}

// ADVI's start, as the caption says it.
QString startText(const QString& start) {
  if (start == "pathfinder") return QObject::tr(" · started from Pathfinder's estimate");
  if (start == "laplace") return QObject::tr(" · started from the Laplace estimate");
  if (start == "random") return QObject::tr(" · started at random");
  return QString();
}

}  // namespace

ElboPanel::ElboPanel(QWidget* parent)
    : QWidget(parent), plot_(new QCustomPlot), caption_(new QLabel), paretoK_(new QLabel), warning_(new QLabel),
      throttle_(this) {
  plot_->setObjectName("elboPlot");
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->xAxis->setLabel(tr("iteration"));
  plot_->yAxis->setLabel(tr("ELBO"));
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setLabel(tr("relative change"));
  plot_->yAxis2->setScaleType(QCPAxis::stLogarithmic);
  plot_->yAxis2->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 210));
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
  QToolButton* exportButton =
      makeExportButton(this, [this](const QString& path, QString* error) { return exportTo(path, error); });
  auto* top = new QHBoxLayout;
  top->addWidget(caption_, 1);
  top->addWidget(exportButton);
  paretoK_->setObjectName("paretoK");
  paretoK_->setToolTip(tr("PSIS k-hat of the draws' importance ratios p/q (Yao, Vehtari, Simpson & Gelman 2018): "
                          "below 0.7 the approximation can be trusted where it matters for estimates"));
  paretoK_->hide();
  warning_->setObjectName("paretoKWarning");
  warning_->setWordWrap(true);
  warning_->setStyleSheet("QLabel { background: #ffebee; color: #b71c1c; border: 1px solid #e57373; "
                          "border-radius: 3px; padding: 3px; }");
  warning_->hide();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(paretoK_);
  layout->addWidget(warning_);
  layout->addWidget(plot_, 1);
  connect(&throttle_, &RefreshThrottle::refresh, this, [this] {
    redraw();
    emit refreshed();
  });
}

void ElboPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    const auto request = [this] { throttle_.request(); };
    connections_ << connect(runs, &RunList::currentChanged, this, request);
    connections_ << connect(runs, &RunList::elboAppended, this, request);
    connections_ << connect(runs, &RunList::drawsReset, this, request);
    connections_ << connect(runs, &RunList::runChanged, this, request);
  }
  throttle_.request();
}

int ElboPanel::plottedPoints() const { return plot_->graphCount() ? plot_->graph(0)->dataCount() : 0; }

int ElboPanel::plottedHeldout() const {
  for (int i = 0; i < plot_->graphCount(); ++i) {
    if (plot_->graph(i)->objectName() == "heldoutElbo") return plot_->graph(i)->dataCount();
  }
  return 0;
}

bool ElboPanel::exportTo(const QString& path, QString* error) {
  redraw();
  plot_->replot();
  return exportPlot(plot_, path, error);
}

namespace {

// An ADVI run's ELBO as the panel plots it: every one-draw estimate, their moving average,
// and the evaluations with their relative change.
struct ElboSeries {
  QVector<double> xs, ys, smooth, evalX, evalElbo, evalChange;
};

ElboSeries elboSeries(const ElboTrace& elbo) {
  ElboSeries s;
  for (const auto& point : elbo.points) {
    s.xs << point.iteration;
    s.ys << point.elbo;
    if (std::isfinite(point.relativeChange) && point.relativeChange > 0) {
      s.evalX << point.iteration;
      s.evalElbo << point.elbo;
      s.evalChange << point.relativeChange;
    }
  }
  // One-draw estimates are noisy: the average spans ~5% of the run (at least 50 of them).
  s.smooth = movingAverage(s.ys, std::max(50, static_cast<int>(s.ys.size() / 20)));
  return s;
}

// What the panel says of a run without an ELBO to plot.
QString noElboText(const RunData* run) {
  if (!run) return ElboPanel::tr("No ELBO yet: run ADVI.");
  QString text;
  switch (run->config.method) {
    case services::Method::nuts: return ElboPanel::tr("%1 is a NUTS run: no ELBO").arg(run->name);
    case services::Method::amortized: return ElboPanel::tr("%1: no steps yet").arg(run->name);
    case services::Method::pathfinder:
      return ElboPanel::tr("%1 is a Pathfinder run (%n path(s)): no ELBO along its paths yet", "",
                           run->config.settings.get(services::setting::num_paths))
          .arg(run->name);
    case services::Method::optimize:
      text = ElboPanel::tr("%1 is an L-BFGS optimization: no iterations yet").arg(run->name);
      if (run->approximation.modeLogDensity) {
        text += ElboPanel::tr(" · mode's log density %1").arg(*run->approximation.modeLogDensity, 0, 'g', 6);
      }
      return text;
    case services::Method::advi: break;
  }
  return ElboPanel::tr("%1: no ELBO yet").arg(run->name);
}

}  // namespace

void ElboPanel::redraw() {
  plot_->clearGraphs();
  plot_->clearItems();
  markedConvergence_ = -1;
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  showParetoK(run.get());
  const services::Method method = run ? run->config.method : services::Method::advi;
  const bool paths = method == services::Method::pathfinder || method == services::Method::optimize;
  const bool plotted = run && method != services::Method::nuts && !run->elbo.empty();
  // A run with nothing to plot shows no axes: not an empty frame with another method's.
  plot_->setVisible(plotted);
  plot_->legend->setVisible(plotted);
  plot_->yAxis2->setVisible(method == services::Method::advi);
  if (!plotted) {
    caption_->setText(noElboText(run.get()));
    plot_->replot(QCustomPlot::rpQueuedReplot);
  } else if (method == services::Method::amortized) {
    redrawTraining(*run);
  } else if (paths) {
    redrawPaths(*run);
  } else {
    redrawAdvi(*run);
  }
}

// Pathfinder: each path's ELBO estimate along its L-BFGS iterations, its best marked (the
// approximation its draws come from). Optimize: the log density along L-BFGS's iterations
// and the mode's (after any Newton steps).
void ElboPanel::redrawPaths(const RunData& run) {
  const bool pathfinder = run.config.method == services::Method::pathfinder;
  const bool mle = run.config.settings.get(services::setting::mle);
  plot_->xAxis->setLabel(tr("L-BFGS iteration"));
  plot_->yAxis->setLabel(pathfinder ? tr("ELBO estimate (%1 draws)").arg(run.config.settings.get(services::setting::elbo_draws))
                                    : mle ? tr("log likelihood") : tr("log density"));
  std::map<int, std::pair<QVector<double>, QVector<double>>> byPath;
  for (const PathPoint& point : run.elbo.pathPoints) {
    auto& [xs, ys] = byPath[point.path];
    xs << point.iteration;
    ys << (std::isfinite(point.value) ? point.value : std::nan(""));  // a gap where none was scored
  }
  QVector<double> allX, allY, bestX, bestY;
  QString best;
  double bestValue = -INFINITY;
  for (const auto& [path, series] : byPath) {
    QCPGraph* graph = plot_->addGraph();
    graph->setName(pathfinder ? tr("path %1").arg(path + 1) : tr("L-BFGS"));
    graph->setPen(QPen(pathfinder ? chainColor(path) : QColor("#0072B2"), 2));
    graph->setData(series.first, series.second, true);
    double top = -INFINITY;
    int at = -1;
    for (int i = 0; i < series.second.size(); ++i) {
      allX << series.first[i];
      allY << series.second[i];
      if (std::isfinite(series.second[i]) && series.second[i] > top) {
        top = series.second[i];
        at = static_cast<int>(series.first[i]);
      }
    }
    if (at < 0) continue;
    bestX << at;
    bestY << top;
    if (top > bestValue) {
      bestValue = top;
      best = pathfinder ? tr("best ELBO %1 (path %2, iteration %3)").arg(top, 0, 'g', 6).arg(path + 1).arg(at)
                        : tr("log density %1 at iteration %2").arg(top, 0, 'g', 8).arg(at);
    }
  }
  if (pathfinder) {
    QCPGraph* marks = plot_->addGraph();
    marks->setName(tr("each path's best"));
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QColor("#D55E00"), 11));
    marks->setData(bestX, bestY, true);
  } else if (run.approximation.modeLogDensity) {
    const double mode = *run.approximation.modeLogDensity;
    auto* line = new QCPItemStraightLine(plot_);
    line->setObjectName("modeLine");
    line->point1->setCoords(0, mode);
    line->point2->setCoords(1, mode);
    line->setPen(QPen(QColor("#009E73"), 1.5, Qt::DashLine));
    allY << mode;
    allX << allX.value(allX.size() - 1, 0);
  }
  // L-BFGS's early steps (and a line search's overshoots) lie far below where the paths
  // settle: the axis spans the upper 80% of the values, the rest runs off its bottom.
  const double last = allX.isEmpty() ? 1.0 : *std::max_element(allX.begin(), allX.end());
  std::vector<double> finite;
  for (const double y : allY) {
    if (std::isfinite(y)) finite.push_back(y);
  }
  std::sort(finite.begin(), finite.end());
  const double lo = finite.empty() ? NAN : finite[finite.size() / 5];
  const double hi = finite.empty() ? NAN : finite.back();
  plot_->xAxis->setRange(0, std::max(1.0, last * 1.03));
  if (std::isfinite(lo) && hi > lo) {
    plot_->yAxis->setRange(lo - (hi - lo) * 0.15, hi + (hi - lo) * 0.15);
  } else {
    plot_->yAxis->rescale();
  }
  QString text = pathfinder ? tr("%1: Pathfinder, %n path(s)", "", static_cast<int>(byPath.size())).arg(run.name)
                            : tr("%1: L-BFGS").arg(run.name);
  if (!best.isEmpty()) text += " · " + best;
  if (!pathfinder && run.approximation.modeLogDensity) {
    text += tr(" · mode's log density %1 (dashed)").arg(*run.approximation.modeLogDensity, 0, 'g', 8);
  }
  caption_->setText(text);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ElboPanel::redrawAdvi(const RunData& run) {
  plot_->xAxis->setLabel(tr("iteration"));
  plot_->yAxis->setLabel(tr("ELBO"));
  const ElboSeries s = elboSeries(run.elbo);
  DecimatedSeries raw(3000);
  for (int i = 0; i < s.xs.size(); ++i) raw.append(s.xs[i], s.ys[i]);
  QVector<double> rx, ry;
  raw.points(&rx, &ry);
  QCPGraph* rawGraph = plot_->addGraph();
  rawGraph->setName(tr("ELBO estimate (1 draw)"));
  rawGraph->setLineStyle(QCPGraph::lsNone);
  rawGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(120, 144, 156, 70), 2.5));
  rawGraph->setData(rx, ry, true);
  QCPGraph* smoothGraph = plot_->addGraph();
  smoothGraph->setName(tr("moving average"));
  smoothGraph->setPen(QPen(QColor("#0072B2"), 2.5));
  smoothGraph->setData(s.xs, s.smooth, true);
  QCPGraph* evaluations = plot_->addGraph();
  evaluations->setName(tr("ELBO evaluation"));
  evaluations->setPen(QPen(QColor("#009E73"), 1));
  evaluations->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QColor("#009E73"), QColor("#009E73"), 5));
  evaluations->setData(s.evalX, s.evalElbo, true);
  QCPGraph* change = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  change->setName(tr("relative change (right)"));
  change->setPen(QPen(QColor("#E69F00"), 1.5));
  change->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
  change->setData(s.evalX, s.evalChange, true);
  // The convergence rule the run was checked against: its relative change below tol_rel_obj.
  const double tol = run.config.settings.get(services::setting::advi_tol_rel_obj);
  auto* tolerance = new QCPItemStraightLine(plot_);
  tolerance->setObjectName("toleranceLine");
  tolerance->point1->setAxes(plot_->xAxis, plot_->yAxis2);
  tolerance->point2->setAxes(plot_->xAxis, plot_->yAxis2);
  tolerance->point1->setCoords(0, tol);
  tolerance->point2->setCoords(1, tol);
  tolerance->setPen(QPen(QColor("#E69F00"), 1, Qt::DotLine));
  scaleAdviAxes(s.xs, s.smooth, s.evalX, s.evalElbo, s.evalChange, tol);

  QString text = tr("%1: ELBO %2 (moving average)").arg(run.name).arg(s.smooth.last(), 0, 'g', 6);
  if (!s.evalChange.isEmpty()) {
    text += tr(" · relative change %1 (tolerance %2)").arg(s.evalChange.last(), 0, 'g', 3).arg(tol, 0, 'g', 3);
  }
  if (run.elbo.convergedAt >= 0) {
    markConvergence(run.elbo.convergedAt);
    text += tr(" · converged at iteration %1").arg(markedConvergence_);
  } else if (!run.isActive()) {
    text += tr(" · did not converge");
  }
  text += startText(run.approximation.start);
  caption_->setText(text);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The early ELBO is far below the rest: the axis scales to the moving average and the
// evaluations after the first 10%.
void ElboPanel::scaleAdviAxes(const QVector<double>& xs, const QVector<double>& smooth, const QVector<double>& evalX,
                              const QVector<double>& evalElbo, const QVector<double>& evalChange, double tol) {
  double lo = INFINITY, hi = -INFINITY;
  const auto include = [&](const QVector<double>& keys, const QVector<double>& values) {
    for (int i = 0; i < values.size(); ++i) {
      if (keys[i] < xs.last() / 10 || !std::isfinite(values[i])) continue;
      lo = std::min(lo, values[i]);
      hi = std::max(hi, values[i]);
    }
  };
  include(xs, smooth);
  include(evalX, evalElbo);
  plot_->xAxis->setRange(0, std::max(1.0, xs.last() * 1.03));
  if (std::isfinite(lo) && hi > lo) {
    const double pad = (hi - lo) * 0.6;
    plot_->yAxis->setRange(lo - pad, hi + pad);
  } else {
    plot_->yAxis->rescale();
  }
  const double smallestChange = evalChange.isEmpty() ? 1.0 : *std::min_element(evalChange.begin(), evalChange.end()) / 2;
  plot_->yAxis2->setRange(std::max(1e-5, std::min(tol / 3, smallestChange)), 2);
}

void ElboPanel::markConvergence(int iteration) {
  markedConvergence_ = iteration;
  auto* line = new QCPItemStraightLine(plot_);
  line->point1->setCoords(iteration, 0);
  line->point2->setCoords(iteration, 1);
  line->setPen(QPen(QColor("#009E73"), 2, Qt::DashLine));
  auto* label = new QCPItemText(plot_);
  label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(iteration, 0.05);
  label->setPositionAlignment(Qt::AlignTop | Qt::AlignRight);
  label->setText(tr("converged at %1 ").arg(iteration));
  label->setColor(QColor("#00695c"));
}

void ElboPanel::showParetoK(const RunData* run) {
  const bool laplaceWithoutJacobian = run && run->config.method == services::Method::optimize &&
                                      run->config.settings.get(services::setting::laplace_draws) > 0 &&
                                      !run->config.kHatApplies() && !run->isActive();
  const bool known = run && run->approximation.paretoK;
  paretoK_->setVisible(known || laplaceWithoutJacobian);
  warning_->setVisible(known && run->approximation.unreliable());
  if (laplaceWithoutJacobian && !known) {
    paretoK_->setText(tr("Pareto k-hat does not apply: without the Jacobian the Laplace draws approximate no "
                         "posterior"));
    return;
  }
  if (!known) return;
  const double k = *run->approximation.paretoK;
  paretoK_->setText(
      QStringLiteral("<b>%1</b>").arg(kHatText(k).toHtmlEscaped()) +
      (run->approximation.fromStoredDraws ? tr(" (computed from the stored draws)") : QString()) +
      (run->approximation.unreliable() ? QString() : tr(" · below %1: the approximation can be trusted").arg(paretoKThreshold())));
  warning_->setText(std::isnan(k) ? tr("⚠ k-hat could not be computed: a draw's log density is NaN, so the "
                                       "approximation cannot be checked. %1")
                                        .arg(remedy(run->config.method))
                                  : tr("⚠ k-hat is above %1: the approximation misses much of the posterior's mass "
                                       "(Yao et al. 2018), so its means, sds and intervals may be far off. %2")
                                        .arg(paretoKThreshold())
                                        .arg(remedy(run->config.method)));
}

void ElboPanel::redrawTraining(const RunData& run) {
  plot_->xAxis->setLabel(tr("step"));
  plot_->yAxis->setLabel(tr("ELBO per row"));
  DecimatedSeries raw(3000);
  QVector<double> xs, ys;
  for (const auto& point : run.elbo.points) {
    xs << point.iteration;
    ys << point.elbo;
    raw.append(point.iteration, point.elbo);
  }
  const QVector<double> smooth = movingAverage(ys, std::max(25, static_cast<int>(ys.size() / 40)));
  QVector<double> rx, ry;
  raw.points(&rx, &ry);
  QCPGraph* rawGraph = plot_->addGraph();
  rawGraph->setName(tr("ELBO of each step's batch"));
  rawGraph->setLineStyle(QCPGraph::lsNone);
  rawGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(120, 144, 156, 70), 2.5));
  rawGraph->setData(rx, ry, true);
  QCPGraph* smoothGraph = plot_->addGraph();
  smoothGraph->setName(tr("moving average"));
  smoothGraph->setPen(QPen(QColor("#0072B2"), 2.5));
  smoothGraph->setData(xs, smooth, true);
  QVector<double> epochX, trainY, heldoutX, heldoutY;
  for (const auto& epoch : run.elbo.epochs) {
    epochX << epoch.step;
    trainY << epoch.trainElbo;
    if (epoch.heldoutElbo && std::isfinite(*epoch.heldoutElbo)) {
      heldoutX << epoch.step;
      heldoutY << *epoch.heldoutElbo;
    }
  }
  QCPGraph* trainGraph = plot_->addGraph();
  trainGraph->setName(tr("epoch's training ELBO"));
  trainGraph->setLineStyle(QCPGraph::lsNone);
  trainGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor("#0072B2"), QColor("#ffffff"), 7));
  trainGraph->setData(epochX, trainY, true);
  QCPGraph* heldoutGraph = plot_->addGraph();
  heldoutGraph->setObjectName("heldoutElbo");
  heldoutGraph->setName(tr("held-out ELBO"));
  heldoutGraph->setPen(QPen(QColor("#D55E00"), 1.5));
  heldoutGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QColor("#D55E00"), QColor("#D55E00"), 7));
  heldoutGraph->setData(heldoutX, heldoutY, true);

  // The first steps' ELBO is far below the rest: scale to what follows the first 5%.
  const double last = xs.isEmpty() ? (epochX.isEmpty() ? 1.0 : epochX.last()) : xs.last();
  double lo = INFINITY, hi = -INFINITY;
  const auto include = [&](const QVector<double>& keys, const QVector<double>& values) {
    for (int i = 0; i < values.size(); ++i) {
      if (keys[i] < last / 20 || !std::isfinite(values[i])) continue;
      lo = std::min(lo, values[i]);
      hi = std::max(hi, values[i]);
    }
  };
  include(xs, smooth);
  include(heldoutX, heldoutY);
  include(epochX, trainY);
  plot_->xAxis->setRange(0, std::max(1.0, last * 1.03));
  if (std::isfinite(lo) && hi > lo) {
    const double pad = (hi - lo) * 0.4;
    plot_->yAxis->setRange(lo - pad, hi + pad);
  } else {
    plot_->yAxis->rescale();
  }

  QString text = run.name;
  if (!smooth.isEmpty()) {
    text = tr("%1: training ELBO %2 per row (moving average)").arg(run.name).arg(smooth.last(), 0, 'f', 2);
  }
  if (!run.elbo.epochs.empty()) {
    const EpochPoint& e = run.elbo.epochs.back();
    text += tr(" · epoch %1/%2").arg(e.epoch).arg(run.config.epochs());
    if (e.heldoutElbo) text += tr(": held-out %1").arg(*e.heldoutElbo, 0, 'f', 2);
    text += tr(", %1 rows/s").arg(e.rowsPerSecond, 0, 'f', 0);
  }
  caption_->setText(text);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace variate::ui
