#include "ui/app/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include "ui/app/draws_csv.h"
#include "ui/app/help_dialog.h"
#include "ui/app/recent_files.h"
#include "ui/app/run_coordinator.h"
#include "ui/app/run_status_label.h"
#include "ui/docks/data_panel.h"
#include "ui/docks/density_panel.h"
#include "ui/docks/elbo_panel.h"
#include "ui/docks/log_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/runs_panel.h"
#include "ui/docks/sbc_panel.h"
#include "ui/docks/trace_panel.h"
#include "ui/docks/workers_panel.h"
#include "ui/document/project_document.h"
#include "ui/document/project_location.h"
#include "ui/modeling/cpp_export.h"
#include "ui/plots/plot_export.h"
#include "ui/runs/engine_controller.h"

namespace variate::ui {
namespace {

// 2: with the Reconstructions panel.
constexpr int kLayoutVersion = 2;

const char* const kExampleModel = R"(# A new model: a normal mean and scale.
data N: int
data y: real[N]

mu ~ Normal(0, 10)
sigma ~ HalfNormal(5)
y ~ Normal(mu, sigma)
)";

const char* const kExampleData = R"({"N": 8, "y": [2.1, 3.4, 1.9, 2.8, 3.9, 2.5, 3.1, 2.2]})";

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), engine_(new EngineController(this)), coordinator_(new RunCoordinator(engine_, this)) {
  setObjectName("variateStudio");
  setWindowIcon(QIcon(":/icons/variate.svg"));
  setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks | GroupedDragging);
  setTabPosition(Qt::AllDockWidgetAreas, QTabWidget::North);
  actions_ = StudioActions::create(this, &undoGroup_);
  docks_ = StudioDocks::create(this, actions_.view);
  actions_.view->addSeparator();
  actions_.view->addAction(actions_.toolBar->toggleViewAction());
  actions_.view->addAction(actions_.resetLayout);
  actions_.view->addAction(actions_.trainingLayout);
  recent_ = new RecentFiles(actions_.recent, this);
  fillExamplesMenu();
  status_ = new RunStatusLabel;
  statusBar()->addPermanentWidget(status_);
  // 1600x1000, or the screen where it is smaller: every panel's content fits there.
  resize(screen() ? QSize(1600, 1000).boundedTo(screen()->availableGeometry().size()) : QSize(1600, 1000));
  docks_.applyDefaultLayout(this);
  restoreLayout();
  connectActions();
  setDocument(nullptr);
}

MainWindow::~MainWindow() {
  docks_.setDocument(nullptr);
  coordinator_->setDocument(nullptr);
}

void MainWindow::connectActions() {
  const StudioActions& a = actions_;
  connect(a.newProject, &QAction::triggered, this, &MainWindow::chooseNew);
  connect(a.open, &QAction::triggered, this, &MainWindow::chooseOpen);
  connect(a.save, &QAction::triggered, this, &MainWindow::save);
  connect(a.saveAs, &QAction::triggered, this, &MainWindow::chooseSaveAs);
  connect(a.importData, &QAction::triggered, this, &MainWindow::chooseImportData);
  connect(a.exportTraces, &QAction::triggered, this, [this] { exportPlot("traceDock"); });
  connect(a.exportDensity, &QAction::triggered, this, [this] { exportPlot("densityDock"); });
  connect(a.exportElbo, &QAction::triggered, this, [this] { exportPlot("elboDock"); });
  connect(a.exportDraws, &QAction::triggered, this, [this] {
    if (document_) exportDraws(document_->runs()->currentId());
  });
  connect(a.exportCpp, &QAction::triggered, this, &MainWindow::chooseExportCpp);
  connect(a.quit, &QAction::triggered, this, &QWidget::close);
  connect(a.run, &QAction::triggered, this, &MainWindow::run);
  connect(a.pause, &QAction::toggled, this, [this](bool paused) {
    if (paused) coordinator_->pause(); else coordinator_->resume();
  });
  connect(a.stop, &QAction::triggered, coordinator_, &RunCoordinator::stop);
  connect(a.runMore, &QAction::triggered, this, [this] {
    if (document_) runMore(document_->runs()->currentId());
  });
  connect(a.compare, &QAction::triggered, this, &MainWindow::chooseComparison);
  connect(a.resetLayout, &QAction::triggered, this, [this] {
    docks_.applyDefaultLayout(this);
    docks_.raiseFrontTabs();
  });
  connect(a.trainingLayout, &QAction::triggered, this, [this] {
    docks_.applyTrainingLayout(this);
    docks_.raiseTrainingTabs();
  });
  connect(a.help, &QAction::triggered, this, [this] {
    auto* help = new HelpDialog(this);
    help->setAttribute(Qt::WA_DeleteOnClose);
    help->show();
  });
  connect(a.about, &QAction::triggered, this, [this] {
    QMessageBox::about(this, tr("About Variate Studio"),
                       tr("<b>Variate Studio %1</b><p>A desktop workbench for Bayesian modeling: NUTS and ADVI on "
                          "LibTorch, live diagnostics, every run kept in the project.</p>")
                           .arg(QCoreApplication::applicationVersion()));
  });
  connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openPath);
  connect(coordinator_, &RunCoordinator::runningChanged, this, &MainWindow::updateActions);
  connect(coordinator_, &RunCoordinator::pausedChanged, this, [this](bool paused) {
    const QSignalBlocker block(actions_.pause);
    actions_.pause->setChecked(paused);
  });
  connect(coordinator_, &RunCoordinator::runFailed, this, [this](const QString& message) {
    showError(tr("Run failed"), message);
  });
  connect(docks_.runs, &RunsPanel::exportDrawsRequested, this, &MainWindow::exportDraws);
  connect(docks_.runs, &RunsPanel::runMoreRequested, this, &MainWindow::runMore);
  connect(docks_.runs, &RunsPanel::deleteRequested, this, &MainWindow::deleteRun);
  connect(docks_.sbc, &SbcPanel::replicationFitRequested, this, [this](qint64 runId, int replication) {
    QString error;
    if (!coordinator_->openReplicationFit(runId, replication, &error) && !error.isEmpty()) {
      showError(tr("Cannot open the replication's fit"), error);
    }
  });
  connect(docks_.data, &DataPanel::importRequested, this, &MainWindow::chooseImportData);
  connect(docks_.workers, &WorkersPanel::workersChanged, docks_.runConfig, &RunConfigPanel::refreshWorkers);
  connect(engine_, &EngineController::linkChanged, this, [this](const QString& state) {
    docks_.workers->showLink(engine_->workerAddress(), state);
  });
  connect(engine_, &EngineController::runEnded, this, [this](const RunOutcome& outcome) {
    if (outcome.status != RunStatus::Interrupted) docks_.workers->showLink(QString(), QString());  // keep "worker gone"
  });
}

void MainWindow::setDocument(std::unique_ptr<ProjectDocument> document) {
  docks_.setDocument(nullptr);
  coordinator_->setDocument(nullptr);
  document_ = std::move(document);
  docks_.setDocument(document_.get());
  coordinator_->setDocument(document_.get());
  status_->setDocument(document_.get());
  if (document_) {
    connect(document_.get(), &ProjectDocument::logged, docks_.log, &LogPanel::append);
    connect(document_.get(), &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_.get(), &ProjectDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(document_->runs(), &RunList::currentChanged, this, &MainWindow::updateActions);
    connect(document_->runs(), &RunList::currentChanged, this, [this](qint64 id) {  // its panel comes forward
      const RunPtr run = document_ ? document_->runs()->run(id) : nullptr;
      if (run && run->config.method == services::Method::sbc) docks_.dock("sbcDock")->raise();
    });
    connect(document_->runs(), &RunList::runChanged, this, &MainWindow::updateActions);
    undoGroup_.addStack(document_->undoStack());
    undoGroup_.setActiveStack(document_->undoStack());
    connect(document_->runs(), &RunList::drawsReset, this, &MainWindow::updateActions);  // export draws
    // A model with networks is trained: its panels come forward (it has no chains to
    // show), and the training layout unless the user's own was restored.
    if (isDeepModel(document_->modelText())) {
      if (!layoutSettled_) docks_.applyTrainingLayout(this);
      layoutSettled_ = true;  // once: later moves are the user's
      if (isVisible()) QTimer::singleShot(0, this, [this] { docks_.raiseTrainingTabs(); });
    }
    docks_.log->append(tr("Opened %1").arg(document_->filePath()));
    for (const QString& note : document_->openingNotes()) docks_.log->append(note);
    recent_->add(document_->filePath());
  }
  updateTitle();
  updateActions();
}

void MainWindow::updateActions() {
  const bool open = document_ != nullptr;
  const bool running = coordinator_->isRunning();
  const RunPtr current = open ? document_->runs()->current() : nullptr;
  const StudioActions& a = actions_;
  for (QAction* action : {a.save, a.saveAs, a.importData, a.exportTraces, a.exportDensity, a.exportElbo, a.exportCpp}) {
    action->setEnabled(open);
  }
  a.saveAs->setEnabled(open && !running);
  const bool sbc = current && current->config.method == services::Method::sbc;
  a.exportDraws->setEnabled(current && current->drawsLoaded);
  a.exportDraws->setText(sbc ? tr("Ranks as CSV…") : tr("Draws as CSV…"));  // an SBC run's, as variate sbc's
  a.run->setEnabled(open && !running);
  a.pause->setEnabled(coordinator_->canPause());
  a.pause->setToolTip(running && !coordinator_->canPause()
                          ? tr("A run on several processes, or an SBC run, cannot pause (the others would wait for "
                               "it until they time out; SBC's replications end in moments); Stop ends it, keeping "
                               "its draws or replications")
                          : tr("Pause or resume the run"));
  a.stop->setEnabled(running);
  const bool training = current && current->config.method == services::Method::amortized;
  // A training goes on from its checkpoint whatever ended it (a failure included); an SBC
  // run fits the replications it lacks.
  a.runMore->setEnabled(open && !running && current && !current->isActive() &&
                        (training || (sbc && current->status != RunStatus::Finished) ||
                         (current->config.method == services::Method::nuts && current->status != RunStatus::Failed)));
  a.runMore->setText(training ? tr("Continue &Training") : sbc ? tr("Continue &SBC") : tr("Run &More Draws"));
  a.compare->setEnabled(open && document_->runs()->size() > 1);
  if (!running) {
    const QSignalBlocker block(a.pause);
    a.pause->setChecked(false);
  }
}

void MainWindow::updateTitle() {
  setWindowTitle(document_ ? QString("%1[*] — Variate Studio").arg(document_->displayName()) : tr("Variate Studio"));
  setWindowModified(document_ && document_->isModified());
}

void MainWindow::showError(const QString& title, const QString& message) {
  lastError_ = message;
  docks_.log->append(title + ": " + message);
  if (quietErrors_) return;
  auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal but not blocking: the engine's batches keep arriving
}

bool MainWindow::openPath(const QString& path) {
  if (coordinator_->isRunning()) {
    showError(tr("Open"), tr("A run is in progress: stop it before opening another project."));
    return false;
  }
  if (!maybeSave()) return false;
  QString error;
  std::unique_ptr<ProjectDocument> opened = path.endsWith(".vmod", Qt::CaseInsensitive)
                                                ? ProjectDocument::openModelFile(path, &error)
                                                : ProjectDocument::open(path, &error);
  if (!opened) {
    showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), error);
    return false;
  }
  lastError_.clear();
  setDocument(std::move(opened));
  return true;
}

void MainWindow::fillExamplesMenu() {
  const QStringList models = exampleModels(exampleProjectsDir());
  for (const QString& model : models) {
    QAction* action = actions_.examples->addAction(QFileInfo(model).dir().dirName());
    action->setToolTip(model);
    connect(action, &QAction::triggered, this, [this, model] { openPath(model); });
  }
  actions_.examples->setEnabled(!models.isEmpty());
}

bool MainWindow::newProject(const QString& path) {
  if (coordinator_->isRunning() || !maybeSave()) return false;
  QString error;
  auto created = ProjectDocument::create(path, QFileInfo(path).completeBaseName(), kExampleModel,
                                         {{"data", kExampleData}}, &error);
  if (!created) {
    showError(tr("New project"), error);
    return false;
  }
  setDocument(std::move(created));
  return true;
}

void MainWindow::chooseOpen() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open project or model"), QString(),
                                                    tr("Variate projects and models (*.variate *.vmod);;All files (*)"));
  if (!path.isEmpty()) openPath(path);
}

void MainWindow::chooseNew() {
  QString path = QFileDialog::getSaveFileName(this, tr("New project"), QString(), tr("Variate projects (*.variate)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".variate")) path += ".variate";
  newProject(path);
}

void MainWindow::save() {
  QString error;
  if (document_ && !document_->save(&error)) showError(tr("Save"), error);
}

void MainWindow::chooseSaveAs() {
  if (!document_) return;
  QString path = QFileDialog::getSaveFileName(this, tr("Save project as"), QString(), tr("Variate projects (*.variate)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".variate")) path += ".variate";
  QString error;
  if (!document_->saveAs(path, &error)) showError(tr("Save as"), error);
  else recent_->add(path);
}

void MainWindow::chooseImportData() {
  if (!document_) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Import data set"), QString(), tr("CmdStan JSON (*.json)"));
  QString error;
  if (!path.isEmpty() && !document_->importDataSet(path, &error)) showError(tr("Import data set"), error);
}

void MainWindow::exportPlot(const QString& dockName) {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(), plotExportFilter());
  if (path.isEmpty()) return;
  QString error;
  const bool ok = dockName == "elboDock"      ? docks_.elbo->exportTo(path, &error)
                  : dockName == "densityDock" ? docks_.density->exportTo(path, &error)
                                              : docks_.traces->exportTo(path, &error);
  if (!ok) showError(tr("Export plot"), error);
}

void MainWindow::exportDraws(qint64 runId) {
  const RunPtr run = document_ ? document_->runs()->run(runId) : nullptr;
  if (!run) return;
  QString error;
  if (run->config.method == services::Method::sbc) {  // its ranks, as `variate sbc --output` writes them
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export ranks"), run->name + " ranks.csv", tr("CSV (*.csv)"));
    if (!path.isEmpty() && !writeSbcRanksCsv(document_->filePath(), runId, path, &error)) {
      showError(tr("Export ranks"), error);
    }
    return;
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export draws"), run->name + ".csv", tr("CSV (*.csv)"));
  if (!path.isEmpty() && !writeDrawsCsv(*run, path, &error)) showError(tr("Export draws"), error);
}

void MainWindow::chooseExportCpp() {
  if (!document_) return;
  const QString directory = QFileDialog::getExistingDirectory(this, tr("Export the model as a C++ program into"));
  if (directory.isEmpty()) return;
  QStringList existing;
  for (const QString& file : cppExportFiles()) {
    if (QFileInfo::exists(directory + "/" + file)) existing << file;
  }
  if (!existing.isEmpty() && !quietErrors_ &&
      QMessageBox::question(this, tr("Export C++"), tr("%1 already holds %2. Replace them?").arg(directory, existing.join(", "))) !=
          QMessageBox::Yes) {
    return;
  }
  exportCpp(directory);
}

bool MainWindow::exportCpp(const QString& directory) {
  if (!document_) return false;
  QString program;
  QString error;
  const QString sourceName = document_->modelName() + ".vmod";
  if (!exportModelAsCpp(document_->modelText(), document_->modelName(), sourceName, directory, &program, &error)) {
    showError(tr("Export C++"), error);
    return false;
  }
  docks_.log->append(tr("Exported %1 as the C++ program %2 into %3 (%4); build it with cmake -S %3 -B %3/build "
                        "-DVariate_DIR=<a Variate build or install>")
                         .arg(sourceName, program, directory, cppExportFiles().join(", ")));
  statusBar()->showMessage(tr("Exported %1 into %2").arg(program, directory), 5000);
  return true;
}

void MainWindow::run() {
  QString error;
  if (!coordinator_->startRun(&error) && !error.isEmpty()) showError(tr("Run"), error);
}

void MainWindow::runMore(qint64 runId) {
  QString error;
  if (!coordinator_->runMore(runId, &error)) showError(tr("Continue run"), error);
}

void MainWindow::deleteRun(qint64 runId) {
  const RunPtr run = document_ ? document_->runs()->run(runId) : nullptr;
  if (!run || QMessageBox::question(this, tr("Delete run"), tr("Delete %1 and all its draws from the project? This cannot be undone.").arg(run->name)) != QMessageBox::Yes) {
    return;
  }
  QString error;
  if (!document_->deleteRun(runId, &error)) showError(tr("Delete run"), error);
}

void MainWindow::chooseComparison() {
  if (!document_) return;
  RunList* runs = document_->runs();
  QStringList names;
  QList<qint64> ids;
  for (qint64 id : runs->ids()) {
    if (id == runs->currentId()) continue;
    names << runs->run(id)->name;
    ids << id;
  }
  names << tr("(no comparison)");
  ids << -1;
  bool ok = false;
  const QString chosen = QInputDialog::getItem(this, tr("Compare runs"),
                                               tr("Compare %1 with:").arg(runs->current() ? runs->current()->name : QString()),
                                               names, 0, false, &ok);
  if (ok) runs->setComparison(ids[names.indexOf(chosen)]);
}

bool MainWindow::maybeSave() {
  if (!document_ || !document_->isModified() || quietErrors_) return true;
  const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                            tr("Save the model of %1 first?").arg(document_->displayName()),
                                            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) {
    QString error;
    if (!document_->save(&error)) {
      showError(tr("Save"), error);
      return false;
    }
  }
  return true;
}

void MainWindow::saveLayout() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState(kLayoutVersion));
}

void MainWindow::restoreLayout() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  layoutRestored_ = restoreState(settings.value("window/state").toByteArray(), kLayoutVersion);
  layoutSettled_ = layoutRestored_;
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  // The tab bars exist once the layout has run: raise after this event.
  if (!layoutRestored_) {
    QTimer::singleShot(0, this, [this] {
      docks_.raiseFrontTabs();
      if (document_ && isDeepModel(document_->modelText())) docks_.raiseTrainingTabs();
    });
  }
  layoutRestored_ = true;  // later shows keep whatever the user chose
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  coordinator_->leave();  // a local run's draws so far are kept; a worker's job goes on
  if (!keepSavedLayout_) saveLayout();
  event->accept();
}

}  // namespace variate::ui
