#include "ui/app/studio_docks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include "ui/analysis/prediction_service.h"
#include "ui/canvas/canvas_panel.h"
#include "ui/docks/autocorrelation_panel.h"
#include "ui/docks/data_panel.h"
#include "ui/docks/density_panel.h"
#include "ui/docks/diagnostics_panel.h"
#include "ui/docks/elbo_panel.h"
#include "ui/docks/energy_panel.h"
#include "ui/docks/forest_panel.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/loo_panel.h"
#include "ui/docks/model_panel.h"
#include "ui/docks/pair_panel.h"
#include "ui/docks/prediction_panel.h"
#include "ui/docks/predictive_check_panel.h"
#include "ui/docks/rank_panel.h"
#include "ui/docks/reconstructions_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/runs_panel.h"
#include "ui/docks/sampler_stats_panel.h"
#include "ui/docks/sbc_panel.h"
#include "ui/docks/trace_panel.h"
#include "ui/docks/workers_panel.h"
#include "ui/plots/run_plot_panel.h"

namespace variate::ui {
namespace {

QDockWidget* wrap(QMainWindow* window, QWidget* panel, const QString& title, const QString& name, QMenu* menu,
                  const QKeySequence& shortcut) {
  auto* dock = new QDockWidget(title, window);
  dock->setObjectName(name);
  dock->setWidget(panel);
  dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                    QDockWidget::DockWidgetFloatable);
  // A tab coming to the front draws (and the predictive panels start computing).
  const auto catchUpWhenShown = [dock](auto* shown) {
    if (!shown) return;
    QObject::connect(dock, &QDockWidget::visibilityChanged, shown, [shown](bool visible) {
      if (visible) shown->catchUp();
    });
  };
  catchUpWhenShown(qobject_cast<RunPlotPanel*>(panel));
  catchUpWhenShown(qobject_cast<PredictionPanel*>(panel));
  QAction* toggle = dock->toggleViewAction();
  toggle->setShortcut(shortcut);
  menu->addAction(toggle);
  return dock;
}

}  // namespace

StudioDocks StudioDocks::create(QMainWindow* window, QMenu* view) {
  StudioDocks d{};
  d.model = new ModelPanel;
  d.data = new DataPanel;
  d.runConfig = new RunConfigPanel;
  d.runs = new RunsPanel;
  d.traces = new TracePanel;
  d.density = new DensityPanel;
  d.diagnostics = new DiagnosticsPanel;
  d.elbo = new ElboPanel;
  d.sampler = new SamplerStatsPanel;
  d.log = new LogPanel;
  d.canvas = new CanvasPanel;
  d.workers = new WorkersPanel;
  d.reconstructions = new ReconstructionsPanel;
  d.pairs = new PairPanel;
  d.ranks = new RankPanel;
  d.autocorrelation = new AutocorrelationPanel;
  d.energy = new EnergyPanel;
  d.forest = new ForestPanel;
  // One service for both: they show two sides of the same computation.
  auto* predictions = new PredictionService(window);
  d.predictive = new PredictiveCheckPanel(predictions);
  d.loo = new LooPanel(predictions);
  d.sbc = new SbcPanel;
  const auto key = [](int n) { return QKeySequence(Qt::ALT | Qt::Key(Qt::Key_0 + n)); };
  d.docks = {
      wrap(window, d.model, QObject::tr("Model"), "modelDock", view, key(1)),
      wrap(window, d.runConfig, QObject::tr("Run"), "runConfigDock", view, key(2)),
      wrap(window, d.data, QObject::tr("Data"), "dataDock", view, key(3)),
      wrap(window, d.runs, QObject::tr("Runs"), "runsDock", view, key(4)),
      wrap(window, d.traces, QObject::tr("Traces"), "traceDock", view, key(5)),
      wrap(window, d.density, QObject::tr("Density"), "densityDock", view, key(6)),
      wrap(window, d.elbo, QObject::tr("ELBO"), "elboDock", view, key(7)),
      wrap(window, d.diagnostics, QObject::tr("Diagnostics"), "diagnosticsDock", view, key(8)),
      wrap(window, d.sampler, QObject::tr("Sampler"), "samplerDock", view, key(9)),
      wrap(window, d.log, QObject::tr("Log"), "logDock", view, QKeySequence()),
      wrap(window, d.canvas, QObject::tr("Model canvas"), "canvasDock", view, QKeySequence()),
      wrap(window, d.workers, QObject::tr("Workers"), "workersDock", view, QKeySequence()),
      wrap(window, d.reconstructions, QObject::tr("Reconstructions"), "reconstructionsDock", view, QKeySequence()),
      wrap(window, d.pairs, QObject::tr("Pairs"), "pairDock", view, QKeySequence()),
      wrap(window, d.ranks, QObject::tr("Ranks"), "rankDock", view, QKeySequence()),
      wrap(window, d.autocorrelation, QObject::tr("Autocorrelation"), "autocorrelationDock", view, QKeySequence()),
      wrap(window, d.energy, QObject::tr("Energy"), "energyDock", view, QKeySequence()),
      wrap(window, d.forest, QObject::tr("Forest"), "forestDock", view, QKeySequence()),
      wrap(window, d.predictive, QObject::tr("Predictive check"), "predictiveDock", view, QKeySequence()),
      wrap(window, d.loo, QObject::tr("LOO"), "looDock", view, QKeySequence()),
      wrap(window, d.sbc, QObject::tr("SBC"), "sbcDock", view, QKeySequence())};
  return d;
}

QDockWidget* StudioDocks::dock(const QString& objectName) const {
  for (QDockWidget* dock : docks) {
    if (dock->objectName() == objectName) return dock;
  }
  return nullptr;
}

void StudioDocks::applyDefaultLayout(QMainWindow* window) const { arrange(window, false); }

void StudioDocks::applyTrainingLayout(QMainWindow* window) const { arrange(window, true); }

void StudioDocks::arrange(QMainWindow* window, bool training) const {
  for (QDockWidget* d : docks) {
    d->setFloating(false);
    window->removeDockWidget(d);  // this hides it; it is shown again once placed
  }
  QDockWidget *modelDock = dock("modelDock"), *runDock = dock("runConfigDock"), *dataDock = dock("dataDock"),
              *runsDock = dock("runsDock"), *traceDock = dock("traceDock"), *densityDock = dock("densityDock"),
              *elboDock = dock("elboDock"), *diagnosticsDock = dock("diagnosticsDock"),
              *samplerDock = dock("samplerDock"), *logDock = dock("logDock"), *canvasDock = dock("canvasDock"),
              *reconstructionsDock = dock("reconstructionsDock");
  // A training has no chains: the ELBO over the reconstructions, the (tall) graph of its
  // networks beside them. A tabbed dock cannot be split, so the splits come first.
  QDockWidget* top = training ? elboDock : traceDock;
  QDockWidget* bottom = training ? reconstructionsDock : diagnosticsDock;
  window->addDockWidget(Qt::LeftDockWidgetArea, modelDock);
  window->addDockWidget(Qt::RightDockWidgetArea, top);
  window->splitDockWidget(modelDock, runDock, Qt::Vertical);
  window->tabifyDockWidget(runDock, runsDock);
  window->tabifyDockWidget(runsDock, dataDock);
  window->tabifyDockWidget(dataDock, dock("workersDock"));
  if (training) window->splitDockWidget(top, canvasDock, Qt::Horizontal);
  window->splitDockWidget(top, bottom, Qt::Vertical);
  if (training) {
    window->tabifyDockWidget(elboDock, traceDock);
    window->tabifyDockWidget(traceDock, densityDock);
    window->tabifyDockWidget(reconstructionsDock, diagnosticsDock);
    window->tabifyDockWidget(diagnosticsDock, samplerDock);
  } else {
    window->tabifyDockWidget(traceDock, densityDock);
    window->tabifyDockWidget(densityDock, elboDock);
    window->tabifyDockWidget(elboDock, canvasDock);
    window->tabifyDockWidget(diagnosticsDock, samplerDock);
    window->tabifyDockWidget(samplerDock, reconstructionsDock);
  }
  window->tabifyDockWidget(training ? samplerDock : reconstructionsDock, logDock);
  // The analysis plots join the plots' group, after its last tab.
  QDockWidget* last = training ? densityDock : canvasDock;
  for (const char* name : {"pairDock", "rankDock", "autocorrelationDock", "energyDock", "forestDock", "predictiveDock",
                           "looDock", "sbcDock"}) {
    window->tabifyDockWidget(last, dock(name));
    last = dock(name);
  }
  for (QDockWidget* d : docks) d->show();
  const int w = std::max(window->width(), 800), h = std::max(window->height(), 500);
  if (training) {
    window->resizeDocks({modelDock, top, canvasDock}, {w * 24 / 100, w * 54 / 100, w * 22 / 100}, Qt::Horizontal);
  } else {
    window->resizeDocks({modelDock, top}, {w * 3 / 10, w * 7 / 10}, Qt::Horizontal);
  }
  // The Run panel's options (NUTS has 13) fit without scrolling at 1000 pixels.
  window->resizeDocks({modelDock, runDock}, {h * 9 / 20, h * 11 / 20}, Qt::Vertical);
  window->resizeDocks({top, bottom}, {h * 11 / 20, h * 9 / 20}, Qt::Vertical);
}

void StudioDocks::raiseFrontTabs() const {
  // Raising a tabbed dock makes it its group's current tab.
  for (const char* name : {"runConfigDock", "traceDock", "diagnosticsDock"}) dock(name)->raise();
}

void StudioDocks::raiseTrainingTabs() const {
  for (const char* name : {"runConfigDock", "elboDock", "reconstructionsDock"}) dock(name)->raise();
}

void StudioDocks::setDocument(ProjectDocument* document) const {
  model->setDocument(document);
  data->setDocument(document);
  runConfig->setDocument(document);
  runs->setDocument(document);
  traces->setDocument(document);
  density->setDocument(document);
  diagnostics->setDocument(document);
  elbo->setDocument(document);
  sampler->setDocument(document);
  canvas->setDocument(document);
  reconstructions->setDocument(document);
  pairs->setDocument(document);
  ranks->setDocument(document);
  autocorrelation->setDocument(document);
  energy->setDocument(document);
  forest->setDocument(document);
  predictive->setDocument(document);
  loo->setDocument(document);
  sbc->setDocument(document);
}

}  // namespace variate::ui
